import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagName, flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { ENTITY_ALIAS_FIELDS } from '../../../../secrets/identity/fields.js';
import { UsageError } from '../../../../shared/errors.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'create'],
  synopsis: 'Create an entity alias',
  usage: 'svc identity entity-alias create [options] -name=NAME -canonical-id=ENTITY_ID -mount-accessor=ACCESSOR',
  description:
    'Creates an alias (POST identity/entity-alias) that links the identity NAME in the auth mount with ' +
    'the given accessor to the entity ENTITY_ID, and prints the alias ID and the entity ID. The mount ' +
    'accessors are shown by `svc auth list`. With -id, the existing alias with that ID is updated instead.',
  examples: [
    { command: 'svc identity entity-alias create -name=bob -canonical-id=0b5a0e4c-6f1d-4a52-9b8e-2f3c1d0e9a77 -mount-accessor=auth_cloud_1a2b3c4d -custom-metadata=team=a' },
  ],
  exitCodes: { 0: 'the alias was created', 1: 'a usage error, such as a missing required flag', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(ENTITY_ALIAS_FIELDS),
  async run(ctx) {
    const body = toRequestData(ENTITY_ALIAS_FIELDS, ctx.flags);
    const missing = Object.entries(ENTITY_ALIAS_FIELDS)
      .filter(([name, schema]) => Array.isArray(schema.required) && schema.required.includes('create') && (body[name] === undefined || body[name] === ''))
      .map(([name, schema]) => `-${flagName(name, schema)}`);
    if (missing.length > 0) throw new UsageError(`Missing required flags: ${missing.join(', ')}`);
    const secret = await clientFor(ctx).secrets('POST', 'identity/entity-alias', { body });
    const format = ctx.flags.format as OutputFormat;
    if (!secret) {
      if (format === 'table') ctx.io.out('Success! The alias already had these values; nothing changed.');
      return 0;
    }
    const { renderSecret } = await import('../../../output/format.js');
    await renderSecret(ctx.io, secret, { format, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
