import { defineCommand, type CommandContext } from '../../../define.js';
import { readAndPrint } from '../../../secrets-output.js';
import { flagsFromFields } from '../../../flags/from-fields.js';
import { ENTITY_NAME_FIELDS } from '../../../../secrets/identity/fields.js';
import { UsageError } from '../../../../shared/errors.js';

/** identity/entity/id/<id> or identity/entity/name/<name>, from the ID argument or -name. */
export function entityPath(ctx: CommandContext): string {
  const name = ctx.flags.name as string | undefined;
  const id = ctx.args[0];
  if ((id === undefined) === (name === undefined)) throw new UsageError('Give either the entity ID as an argument or -name, not both');
  return id !== undefined ? `identity/entity/id/${encodeURIComponent(id)}` : `identity/entity/name/${encodeURIComponent(name!)}`;
}

export default defineCommand({
  path: ['identity', 'entity', 'read'],
  synopsis: 'Print an entity',
  usage: 'svc identity entity read [options] (ID | -name=NAME)',
  description:
    'Prints the entity with the given ID, or with -name the entity of that name: its policies, metadata, ' +
    'aliases and timestamps.',
  examples: [
    { command: 'svc identity entity read 0b5a0e4c-6f1d-4a52-9b8e-2f3c1d0e9a77' },
    { command: 'svc identity entity read -name=alice -format=json' },
  ],
  exitCodes: { 0: 'the entity was printed', 1: 'a usage error', 2: 'a server error, or no such entity' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields({ name: { ...ENTITY_NAME_FIELDS.name, description: 'Read the entity with this name instead of by ID.', cli: { complete: 'entity-name' } } }),
  args: [{ name: 'id', description: 'The ID of the entity.', complete: 'entity' }],
  async run(ctx) {
    const path = entityPath(ctx);
    return readAndPrint(ctx, path);
  },
});
