/**
 * A task's stdout or stderr as one stream across the executor's rotated files `<task>.<type>.N` (see the
 * Rotator in src/client/executor/executor.cjs): N grows, only the newest max_files remain, and the
 * executor writes only to the newest. Offsets count across the files still present: origin=start from
 * the start of the oldest, origin=end back from the end of the newest, each clamped to what there is
 * (as Nomad's findClosest).
 *
 * Following keeps nothing from being lost or repeated at a rotation: a file is left only once a newer one
 * exists and the old one has been read to its end again (its last bytes may land after our first end of
 * file), and newer files are opened as soon as a poll sees them, so the executor deleting them while the
 * reader is still behind (a slow client) does not take their contents away.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { NotFound } from '../../shared/errors.js';
import { FileCursor, FollowEnd } from './file-cursor.js';
import { POLL_MS } from '../../scheduler/wire/alloc-fs.js';
import { FILE_DELETED, FILE_TRUNCATED, type StreamEvent } from '../../scheduler/wire/stream-frames.js';

export interface LogStreamOptions {
  /** the host path of the allocation's `alloc/logs` */
  logsDir: string;
  task: string;
  type: 'stdout' | 'stderr';
  origin: 'start' | 'end';
  /** bytes from the origin, 0 or more */
  offset: number;
  follow: boolean;
  /** the task can write no more (dead, or its allocation terminal): a follow ends once everything is read */
  finished: () => boolean;
  signal: AbortSignal;
}

/**
 * Rotated files opened ahead of the reader, at most: each holds a descriptor and, once the executor
 * deletes it, its disk space. A reader further behind than this loses the files it never saw, as
 * Nomad's does.
 */
const MAX_AHEAD = 16;

/** The log's files, opened in index order ahead of the reader. */
class LogFiles {
  private readonly ahead: Array<{ index: number; cursor: FileCursor }> = [];
  /** the highest index opened, or found gone */
  private highest = -1;
  private scanning: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly base: string,
  ) {}

  /** Opens the files newer than any seen so far (at most `room` of them). One scan at a time. */
  scan(room = MAX_AHEAD - this.ahead.length): Promise<void> {
    this.scanning ??= this.open(room).finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async open(room: number): Promise<void> {
    const prefix = `${this.base}.`;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // the allocation directory was removed
      throw err;
    }
    const indexes = names
      .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map((n) => Number(n.slice(prefix.length)))
      .filter((i) => i > this.highest)
      .sort((a, b) => a - b);
    for (const index of indexes.slice(0, Math.max(0, room))) {
      if (this.closed) return;
      const name = `${prefix}${index}`;
      try {
        this.ahead.push({ index, cursor: await FileCursor.open(path.join(this.dir, name), `alloc/logs/${name}`) });
      } catch (err) {
        // Rotated away between the listing and the open: nothing left to read of it.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      this.highest = index;
    }
  }

  /** The oldest opened file newer than `after`, taken from the queue. */
  async next(after: number, scan: boolean): Promise<{ index: number; cursor: FileCursor } | undefined> {
    if (scan) await this.scan();
    const i = this.ahead.findIndex((f) => f.index > after);
    return i === -1 ? undefined : this.ahead.splice(i, 1)[0];
  }

  /** Every opened file, oldest first, taken from the queue. */
  takeAll(): Array<{ index: number; cursor: FileCursor }> {
    return this.ahead.splice(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.scanning?.catch(() => undefined);
    await Promise.all(this.takeAll().map((f) => f.cursor.close()));
  }
}

/** Where to start: the file and position `offset` bytes from the origin, the files before it closed. */
async function position(files: Array<{ index: number; cursor: FileCursor }>, origin: 'start' | 'end', offset: number): Promise<number> {
  let rest = offset;
  if (origin === 'start') {
    for (let i = 0; i < files.length; i++) {
      const size = await files[i].cursor.size();
      if (rest <= size || i === files.length - 1) {
        files[i].cursor.pos = Math.min(rest, size);
        return i;
      }
      rest -= size;
    }
    return 0;
  }
  for (let i = files.length - 1; i >= 0; i--) {
    const size = await files[i].cursor.size();
    if (rest <= size || i === 0) {
      files[i].cursor.pos = Math.max(0, size - rest);
      return i;
    }
    rest -= size;
  }
  return 0;
}

/**
 * Opens the log where the options say. Without follow, a log with no file at all is a 404 (thrown here,
 * before the response starts); a follow waits for the first file to appear.
 */
export async function openLogStream(opts: LogStreamOptions): Promise<AsyncGenerator<StreamEvent>> {
  const files = new LogFiles(opts.logsDir, `${opts.task}.${opts.type}`);
  // Everything present, whatever the limit: positioning needs every size, and the count is max_files.
  await files.scan(Number.MAX_SAFE_INTEGER);
  const present = files.takeAll();
  if (present.length === 0 && !opts.follow) throw new NotFound(`log entry for task "${opts.task}" and log type "${opts.type}" not found`);
  let start = 0;
  try {
    start = await position(present, opts.origin, opts.offset);
  } catch (err) {
    await Promise.all(present.map((f) => f.cursor.close()));
    throw err;
  }
  await Promise.all(present.slice(0, start).map((f) => f.cursor.close()));
  return readLog(files, present.slice(start), opts);
}

async function* readLog(files: LogFiles, queued: Array<{ index: number; cursor: FileCursor }>, opts: LogStreamOptions): AsyncGenerator<StreamEvent> {
  // Without follow the stream is the files present at the start; a follow also takes the ones that come.
  const nextFile = async (after: number) => {
    const i = queued.findIndex((f) => f.index > after);
    if (i !== -1) return queued.splice(i, 1)[0];
    return opts.follow ? files.next(after, true) : undefined;
  };
  const end = new FollowEnd(opts.finished, opts.signal);
  const scanner = opts.follow ? setInterval(() => void files.scan().catch(() => undefined), POLL_MS) : undefined;
  let current: { index: number; cursor: FileCursor } | undefined;
  let next: typeof current;
  try {
    current = await nextFile(-1);
    for (;;) {
      if (opts.signal.aborted) return;
      if (!current) {
        current = await nextFile(-1);
        if (current) continue;
        if (!opts.follow) return;
        yield { kind: 'idle' };
        if (!(await end.wait())) return;
        continue;
      }
      const { cursor } = current;
      const data = await cursor.read();
      if (data.length > 0) {
        yield { kind: 'data', file: cursor.file, data, end: cursor.pos };
        continue;
      }
      if (next) {
        // Read to the end a second time since the newer file appeared: now this one is complete.
        if (await cursor.deleted()) yield { kind: 'event', file: cursor.file, event: FILE_DELETED, offset: cursor.pos };
        await cursor.close();
        current = next;
        next = undefined;
        continue;
      }
      next = await nextFile(current.index);
      if (next) continue;
      if (!opts.follow) return;
      if (await cursor.truncated()) {
        cursor.pos = 0;
        yield { kind: 'event', file: cursor.file, event: FILE_TRUNCATED, offset: 0 };
        continue;
      }
      yield { kind: 'idle' };
      if (!(await end.wait())) return;
    }
  } finally {
    clearInterval(scanner);
    await current?.cursor.close();
    await next?.cursor.close();
    await Promise.all(queued.map((f) => f.cursor.close()));
    await files.close();
  }
}
