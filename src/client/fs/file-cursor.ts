/**
 * Reading a file another process is writing: an open descriptor and a position, and what a follow does
 * when it reaches the end of what there is.
 */
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRAME_SIZE } from '../../scheduler/wire/stream-frames.js';
import { POLL_MS } from '../../scheduler/wire/alloc-fs.js';

/**
 * An open file read from a position on. Reading goes through the descriptor, not the path: a log the
 * executor rotates away (unlinks) stays readable to its end while the cursor holds it.
 */
export class FileCursor {
  private constructor(
    /** the file as frames name it: relative to the allocation directory */
    readonly file: string,
    private readonly handle: FileHandle,
    public pos: number,
  ) {}

  /** Throws the open error as is (ENOENT when the file went away meanwhile). */
  static async open(hostPath: string, file: string): Promise<FileCursor> {
    return new FileCursor(file, await open(hostPath, 'r'), 0);
  }

  /**
   * Where the open descriptor really leads (Linux: /proc/self/fd), undefined where that cannot be told.
   * A path checked before opening can be swapped for a link before the open; this tells afterwards.
   */
  async openedPath(): Promise<string | undefined> {
    return realpath(`/proc/self/fd/${this.handle.fd}`).catch(() => undefined);
  }

  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  /** Up to `max` bytes from the position on, moving it; empty at the end of the file. */
  async read(max = FRAME_SIZE): Promise<Buffer> {
    const buf = Buffer.allocUnsafe(max);
    const { bytesRead } = await this.handle.read(buf, 0, max, this.pos);
    this.pos += bytesRead;
    // A copy when the read came up short, so a small chunk does not pin a 64 KiB buffer.
    return bytesRead === max ? buf : Buffer.from(buf.subarray(0, bytesRead));
  }

  /** The file is now shorter than what was read: someone truncated it (`> file`), so reading restarts at 0. */
  async truncated(): Promise<boolean> {
    return (await this.handle.stat()).size < this.pos;
  }

  /** No name refers to the file any more: deleted, or replaced by a rename. */
  async deleted(): Promise<boolean> {
    return (await this.handle.stat()).nlink === 0;
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => undefined);
  }
}

/**
 * The end of a follow: it stops once whoever writes can write no more (`finished`: the task is dead, the
 * allocation terminal) and everything was read, so `logs -f` exits by itself. The first time `finished`
 * holds, the reader gets one more pass, because output written just before the task died may not have
 * been read yet; after that pass, the end of the data is the end of the stream.
 */
export class FollowEnd {
  private finishing = false;

  constructor(
    private readonly finished: () => boolean,
    private readonly signal: AbortSignal,
  ) {}

  /** At the end of the data: false to stop now, true to read again (after a pause, unless finishing). */
  async wait(): Promise<boolean> {
    if (this.signal.aborted || this.finishing) return false;
    if (this.finished()) {
      this.finishing = true;
      return true;
    }
    await sleep(POLL_MS, undefined, { signal: this.signal }).catch(() => undefined);
    return !this.signal.aborted;
  }
}
