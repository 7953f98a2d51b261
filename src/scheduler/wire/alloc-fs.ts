/**
 * An allocation's directory as the fs and logs endpoints read it, wherever its node runs: on disk here
 * (localAllocFs in src/client/fs/local-alloc-fs.ts, for a node in this process and for a node answering
 * through its tunnel), or through a node's tunnel (src/scheduler/tunnel/). Paths are relative to the
 * allocation directory (src/client/fs/alloc-files.ts). Readers are opened before they are returned, so
 * what fails (not found, a directory, outside the directory) fails while the answer can still be an HTTP
 * status.
 */
import type { StreamEvent } from './stream-frames.js';

/** Nomad's AllocFileInfo. */
export interface AllocFileInfo {
  Name: string;
  IsDir: boolean;
  Size: number;
  /** Go's FileMode.String(): `-rw-r--r--`, `drwxrwxrwx`, `dtrwxrwxrwx`, `Lrwxrwxrwx` */
  FileMode: string;
  /** RFC 3339 with nanoseconds, as Go marshals a time.Time */
  ModTime: string;
  /** filled by stat only (Go's http.DetectContentType), "" in listings, as Nomad answers */
  ContentType: string;
}

/**
 * How often a follow looks for more data (and for the next rotated log), as Nomad's nextLogCheckRate; a
 * follow through a tunnel checks `finished` as often, so it ends as soon as one on this machine would.
 */
export const POLL_MS = 100;

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
