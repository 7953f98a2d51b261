import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { ENTITY_FIELDS } from '../../../../secrets/identity/fields.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'entity', 'create'],
  synopsis: 'Create an entity',
  usage: 'svc identity entity create [options]',
  description:
    'Creates an entity (POST identity/entity) and prints its ID and name. Without -name the server ' +
    'names it entity_<8 hex>. As in Vault, when -name names an existing entity, that entity is updated ' +
    'with the flags given instead, and nothing is printed but a success line.',
  examples: [
    { command: 'svc identity entity create -name=alice -policies=dev,ops -metadata=team=web' },
    { command: 'svc identity entity create -name=ci -field=id', description: 'Print only the new entity\'s ID' },
  ],
  exitCodes: { 0: 'the entity was created or updated', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(ENTITY_FIELDS, { omit: ['id'] }),
  async run(ctx) {
    const body = toRequestData(ENTITY_FIELDS, ctx.flags);
    const secret = await clientFor(ctx).secrets('POST', 'identity/entity', { body });
    const format = ctx.flags.format as OutputFormat;
    if (!secret) {
      if (format === 'table') ctx.io.out(`Success! Entity "${String(body.name)}" already existed; updated it with the values given.`);
      return 0;
    }
    const { renderSecret } = await import('../../../output/format.js');
    await renderSecret(ctx.io, secret, { format, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
