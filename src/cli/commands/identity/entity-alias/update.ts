import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { ENTITY_ALIAS_ID_FIELDS } from '../../../../secrets/identity/fields.js';
import { UsageError } from '../../../../shared/errors.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'update'],
  synopsis: 'Update an entity alias',
  usage: 'svc identity entity-alias update [options] ID',
  description:
    'Updates the alias with the given ID (POST identity/entity-alias/id/<ID>). Only the flags given ' +
    'change; the result is checked by the same rules as a create. Prints the alias ID and its entity ID.',
  examples: [
    { command: 'svc identity entity-alias update -canonical-id=0b5a0e4c-6f1d-4a52-9b8e-2f3c1d0e9a77 5e1f9c3a-8d2b-4e7f-a6c1-9b0d3e2f1a44', description: 'Move the alias to another entity' },
  ],
  exitCodes: { 0: 'the alias was updated, or already had these values', 1: 'a usage error', 2: 'a server error, such as an unknown ID' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(ENTITY_ALIAS_ID_FIELDS, { omit: ['id'] }),
  args: [{ name: 'id', description: 'The ID of the alias.', required: true, complete: 'entity-alias' }],
  async run(ctx) {
    const body = toRequestData(ENTITY_ALIAS_ID_FIELDS, ctx.flags);
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give at least one of -name, -canonical-id, -mount-accessor, -custom-metadata');
    const path = `identity/entity-alias/id/${encodeURIComponent(ctx.args[0])}`;
    const secret = await clientFor(ctx).secrets('POST', path, { body });
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
