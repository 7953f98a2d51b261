import { writeAndPrint } from '../../../secrets-output.js';
import { defineCommand } from '../../../define.js';
import { flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { ENTITY_ID_FIELDS } from '../../../../secrets/identity/fields.js';
import { UsageError } from '../../../../shared/errors.js';

export default defineCommand({
  path: ['identity', 'entity', 'update'],
  synopsis: 'Update an entity',
  usage: 'svc identity entity update [options] ID',
  description:
    'Updates the entity with the given ID (POST identity/entity/id/<ID>). Only the flags given change; ' +
    '-name renames the entity, -policies and -metadata replace the whole list or map.',
  examples: [
    { command: 'svc identity entity update -policies=dev 0b5a0e4c-6f1d-4a52-9b8e-2f3c1d0e9a77' },
    { command: 'svc identity entity update -disabled 0b5a0e4c-6f1d-4a52-9b8e-2f3c1d0e9a77', description: 'Refuse the entity\'s tokens' },
  ],
  exitCodes: { 0: 'the entity was updated', 1: 'a usage error', 2: 'a server error, such as an unknown ID' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(ENTITY_ID_FIELDS, { omit: ['id'] }),
  args: [{ name: 'id', description: 'The ID of the entity.', required: true, complete: 'entity' }],
  async run(ctx) {
    const body = toRequestData(ENTITY_ID_FIELDS, ctx.flags);
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give at least one of -name, -metadata, -policies, -disabled');
    const path = `identity/entity/id/${encodeURIComponent(ctx.args[0])}`;
    return writeAndPrint(ctx, path, body);
  },
});
