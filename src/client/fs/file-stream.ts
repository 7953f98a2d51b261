/**
 * One file of the allocation directory read as a stream: `cat` and `readat` (a range, then the end) and
 * `stream` (frames, following by default as Nomad's does). A followed file that is truncated restarts at
 * 0; one that is deleted ends the stream, as in Nomad; otherwise a follow ends once the allocation is
 * terminal and the file read to its end.
 */
import { UserError } from '../../shared/errors.js';
import { FileCursor, FollowEnd } from './file-cursor.js';
import { FILE_DELETED, FILE_TRUNCATED, FRAME_SIZE, type StreamEvent } from '../../scheduler/wire/stream-frames.js';

export interface FileStreamOptions {
  /** the resolved host path (see resolveAllocPath) */
  hostPath: string;
  /** the path frames name: relative to the allocation directory */
  file: string;
  origin: 'start' | 'end';
  /** bytes from the origin, 0 or more; clamped to the file's size */
  offset: number;
  /** stop after this many bytes; 0 for no limit */
  limit: number;
  follow: boolean;
  /** nothing will write to the allocation directory any more */
  finished: () => boolean;
  signal: AbortSignal;
}

/** Opens the file (errors thrown here, before the response starts) and answers its reader. */
export async function openFileStream(opts: FileStreamOptions): Promise<AsyncGenerator<StreamEvent>> {
  const cursor = await FileCursor.open(opts.hostPath, opts.file);
  try {
    const opened = await cursor.openedPath();
    if (opened !== undefined && opened !== opts.hostPath) throw new UserError(`path "${opts.file}" changed while it was being opened; try again`);
    const size = await cursor.size();
    cursor.pos = opts.origin === 'end' ? Math.max(0, size - opts.offset) : Math.min(opts.offset, size);
  } catch (err) {
    await cursor.close();
    throw err;
  }
  return readFile(cursor, opts);
}

async function* readFile(cursor: FileCursor, opts: FileStreamOptions): AsyncGenerator<StreamEvent> {
  const end = new FollowEnd(opts.finished, opts.signal);
  let left = opts.limit > 0 ? opts.limit : Infinity;
  try {
    while (left > 0 && !opts.signal.aborted) {
      const data = await cursor.read(Math.min(FRAME_SIZE, left));
      if (data.length > 0) {
        left -= data.length;
        yield { kind: 'data', file: cursor.file, data, end: cursor.pos };
        continue;
      }
      if (!opts.follow) return;
      if (await cursor.truncated()) {
        cursor.pos = 0;
        yield { kind: 'event', file: cursor.file, event: FILE_TRUNCATED, offset: 0 };
        continue;
      }
      if (await cursor.deleted()) {
        yield { kind: 'event', file: cursor.file, event: FILE_DELETED, offset: cursor.pos };
        return;
      }
      yield { kind: 'idle' };
      if (!(await end.wait())) return;
    }
  } finally {
    await cursor.close();
  }
}
