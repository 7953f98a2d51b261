/**
 * An allocation's directory as the fs and logs endpoints read it, wherever its node runs: on disk here
 * (localAllocFs, for a node in this process and for a node answering through its tunnel), or through a
 * node's tunnel (src/scheduler/tunnel/). Paths are relative to the allocation directory (alloc-files.ts).
 * Readers are opened before they are returned, so what fails (not found, a directory, outside the
 * directory) fails while the answer can still be an HTTP status.
 */
import { openFileStream } from './file-stream.js';
import { fileToRead, listAllocPath, resolveAllocPath, statAllocPath, type AllocFileInfo } from './alloc-files.js';
import { openLogStream } from './log-stream.js';
import type { StreamEvent } from '../../scheduler/wire/stream-frames.js';

interface FollowOptions {
  origin: 'start' | 'end';
  /** bytes from the origin, 0 or more */
  offset: number;
  follow: boolean;
  /** nothing will write any more (the task is dead, the allocation terminal): a follow ends once all is read */
  finished: () => boolean;
  signal: AbortSignal;
}

export interface FileReadOptions extends FollowOptions {
  /** stop after this many bytes; 0 for no limit */
  limit: number;
}

export interface LogReadOptions extends FollowOptions {
  task: string;
  type: 'stdout' | 'stderr';
}

export interface AllocFs {
  ls(path: string): Promise<AllocFileInfo[]>;
  stat(path: string): Promise<AllocFileInfo>;
  /** one file (cat, readat, stream); files under a task's secrets/ are refused */
  read(path: string, opts: FileReadOptions): Promise<AsyncGenerator<StreamEvent>>;
  /** a task's stdout or stderr across its rotated files */
  logs(opts: LogReadOptions): Promise<AsyncGenerator<StreamEvent>>;
}

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
