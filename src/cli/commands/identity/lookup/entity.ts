import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { LOOKUP_ENTITY_FIELDS } from '../../../../secrets/identity/fields.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'lookup', 'entity'],
  synopsis: 'Look up an entity by ID, name or alias',
  usage: 'svc identity lookup entity [options] (-id=ID | -name=NAME | -alias-id=ID | -alias-name=NAME -alias-mount-accessor=ACCESSOR)',
  description:
    'Finds the entity with the given ID or name, the entity that owns the alias with -alias-id, or the ' +
    'one that owns the alias -alias-name in the auth mount with accessor -alias-mount-accessor (see ' +
    '`svc auth list -detailed`), and prints it as `svc identity entity read` does. Give exactly one ' +
    'criterion, or the alias name and mount accessor together. Uses identity/lookup/entity, which needs ' +
    'the "update" capability.',
  examples: [
    { command: 'svc identity lookup entity -name=alice' },
    { command: 'svc identity lookup entity -alias-name=build-agent -alias-mount-accessor=auth_cloud_1a2b3c4d -field=id', description: 'The ID of the entity behind a login' },
  ],
  exitCodes: { 0: 'the entity was printed', 1: 'a usage error', 2: 'a server error, or no entity matches' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(LOOKUP_ENTITY_FIELDS),
  async run(ctx) {
    const body = toRequestData(LOOKUP_ENTITY_FIELDS, ctx.flags);
    const secret = await clientFor(ctx).secrets('POST', 'identity/lookup/entity', { body });
    if (!secret) {
      ctx.io.err('No entity matches the criteria given');
      return 2;
    }
    const { renderSecret } = await import('../../../output/format.js');
    await renderSecret(ctx.io, secret, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
