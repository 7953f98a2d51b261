/** An allocation directory on this machine, read as the fs and logs endpoints read any node's. */
import { openFileStream } from './file-stream.js';
import { fileToRead, listAllocPath, resolveAllocPath, statAllocPath } from './alloc-files.js';
import { openLogStream } from './log-stream.js';
import type { AllocFs } from '../../scheduler/wire/alloc-fs.js';

/** The directory on this machine; `allocDir` answers its host path, or throws when there is none. */
export function localAllocFs(allocDir: () => string): AllocFs {
  return {
    ls: async (requested) => listAllocPath(await resolveAllocPath(allocDir(), requested), requested),
    stat: async (requested) => statAllocPath(await resolveAllocPath(allocDir(), requested)),
    read: async (requested, opts) => {
      const target = await resolveAllocPath(allocDir(), requested);
      await fileToRead(target, requested);
      return openFileStream({ hostPath: target.host, file: target.rel, ...opts });
    },
    logs: async (opts) => {
      // alloc/ is writable by the tasks: its logs/ is resolved like any path, so a link planted there is refused.
      const logsDir = (await resolveAllocPath(allocDir(), 'alloc/logs')).host;
      return openLogStream({ logsDir, ...opts });
    },
  };
}
