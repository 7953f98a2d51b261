/**
 * sys/remount, as Vault's: moves a secrets engine, its data with it, to another path. Vault moves in
 * the background and answers a migration_id to follow at sys/remount/status/<id>; here the move is one
 * write, done before the answer, so the status read says "success" at once.
 */
import { uuid } from '../../shared/ids.js';
import { NotFound } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import { SECRET_MOUNT_MOVES_TABLE, type MountMove } from '../mounts/secret-mount-table.js';

export const remountPaths = [
  definePath({
    pattern: 'remount',
    fields: {
      from: { type: 'string', description: 'The engine\'s current mount path, e.g. "secret".', required: ['update'] },
      to: { type: 'string', description: 'The new mount path, e.g. "kv".', required: ['update'] },
    },
    synopsis: 'Move a secrets engine to another path.',
    description:
      'Moves the engine at "from" to "to", its data and settings with it; "to" must be free and not ' +
      'reserved. Answers the migration_id that sys/remount/status/<id> reports on.',
    operations: {
      update: {
        summary: 'Move a secrets engine.',
        handler: async (req, data) => {
          const move = await req.services.secretMounts.remount(data.get<string>('from'), data.get<string>('to'), uuid());
          return { data: { migration_id: move.migrationId } };
        },
      },
    },
  }),
  definePath({
    pattern: 'remount/status/:migration_id',
    fields: { migration_id: { type: 'string', description: 'The id sys/remount answered.' } },
    synopsis: 'Read how a move of a secrets engine went.',
    description: 'Answers the move\'s source and target mounts and its status.',
    operations: {
      read: {
        summary: 'Read a move\'s status.',
        handler: async (req, data) => {
          const id = data.get<string>('migration_id');
          const move = req.services.store.get<MountMove>(SECRET_MOUNT_MOVES_TABLE, id);
          if (!move) throw new NotFound(`no migration with id "${id}"`);
          return {
            data: {
              migration_id: move.migrationId,
              migration_info: { source_mount: move.from, target_mount: move.to, status: 'success', start_time: move.time, end_time: move.time },
            },
          };
        },
      },
    },
  }),
];
