import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagsFromFields } from '../../../flags/from-fields.js';
import { ENTITY_NAME_FIELDS } from '../../../../secrets/identity/fields.js';
import type { OutputFormat } from '../../../output/format.js';
import { entityPath } from './read.js';

export default defineCommand({
  path: ['identity', 'entity', 'delete'],
  synopsis: 'Delete an entity and its aliases',
  usage: 'svc identity entity delete [options] (ID | -name=NAME)',
  description:
    'Deletes the entity with the given ID, or with -name the entity of that name, together with its ' +
    'aliases. Deleting an entity that does not exist is not an error.',
  examples: [{ command: 'svc identity entity delete -name=alice' }],
  exitCodes: { 0: 'the entity was deleted, or did not exist', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields({ name: { ...ENTITY_NAME_FIELDS.name, description: 'Delete the entity with this name instead of by ID.', cli: { complete: 'entity-name' } } }),
  args: [{ name: 'id', description: 'The ID of the entity.', complete: 'entity' }],
  async run(ctx) {
    const path = entityPath(ctx);
    await clientFor(ctx).secrets('DELETE', path);
    if ((ctx.flags.format as OutputFormat) === 'table') ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
    return 0;
  },
});
