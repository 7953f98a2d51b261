/**
 * An allocation's logs and files (scheduler API, /v1/client/fs/*): typed calls for the CLI and the tests,
 * and the readers for the streamed answers: frames (logs, stream) decoded as they arrive, raw bytes (cat,
 * readat) passed on as they arrive.
 */
import { ConnectionError } from '../shared/errors.js';
import type { ApiClient, ApiResponse } from './http/client.js';
import { openStream } from './open-stream.js';

export type { AllocFileInfo } from '../scheduler/wire/alloc-fs.js';
import type { AllocFileInfo } from '../scheduler/wire/alloc-fs.js';

/** One decoded frame: `data` is empty for a heartbeat or a file event. */
export interface Frame {
  data: Buffer;
  /** the file the data came from, relative to the allocation directory */
  file: string;
  /** the position in `file` just after `data` */
  offset: number;
  /** "file deleted" or "file truncated" */
  event: string;
}

export interface LogsOptions {
  task: string;
  type: 'stdout' | 'stderr';
  follow?: boolean;
  origin?: 'start' | 'end';
  offset?: number;
  namespace?: string;
  signal?: AbortSignal;
}

export interface StreamOptions {
  path: string;
  follow?: boolean;
  origin?: 'start' | 'end';
  offset?: number;
  namespace?: string;
  signal?: AbortSignal;
}

const fsPath = (what: string, allocId: string) => `/v1/client/fs/${what}/${encodeURIComponent(allocId)}`;

/**
 * Splits concatenated JSON objects (Nomad's frame stream) into whole objects as bytes arrive; an object may
 * be split across chunks anywhere. Frames are flat objects, but strings (file names) may hold braces, so
 * strings and escapes are tracked. The scan goes on where the last chunk ended: each byte is looked at once.
 */
export class FrameParser {
  private buf: Buffer = Buffer.alloc(0);
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private start = -1;

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const frames: Frame[] = [];
    for (let i = this.scanned; i < this.buf.length; i++) {
      const b = this.buf[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c) this.escaped = true;
        else if (b === 0x22) this.inString = false;
      } else if (b === 0x22) this.inString = true;
      else if (b === 0x7b) {
        if (this.depth++ === 0) this.start = i;
      } else if (b === 0x7d && --this.depth === 0) {
        frames.push(decodeFrame(this.buf.subarray(this.start, i + 1).toString('utf8')));
        this.start = -1;
      }
    }
    // Keep only an unfinished object (whitespace between objects is dropped).
    if (this.start === -1) {
      this.buf = Buffer.alloc(0);
      this.scanned = 0;
    } else {
      this.buf = this.buf.subarray(this.start);
      this.scanned = this.buf.length;
      this.start = 0;
    }
    return frames;
  }

  /** Whether an object was left unfinished (the stream was cut). */
  get pending(): boolean {
    return this.start !== -1;
  }
}

function decodeFrame(text: string): Frame {
  const f = JSON.parse(text) as { Offset?: number; Data?: string; File?: string; FileEvent?: string };
  return { data: f.Data ? Buffer.from(f.Data, 'base64') : Buffer.alloc(0), file: f.File ?? '', offset: f.Offset ?? 0, event: f.FileEvent ?? '' };
}

/** A stream that stopped before the server ended it: the connection was cut (a crash, the network). */
const cut = (err: unknown) => new ConnectionError(`the server's answer was cut off before its end (${(err as Error)?.message ?? String(err)})`);

/** The frames of a response, heartbeats included, until the server ends it (or `signal` aborts). */
async function* framesOf(res: ApiResponse, signal?: AbortSignal): AsyncGenerator<Frame> {
  const parser = new FrameParser();
  try {
    for await (const chunk of res) yield* parser.push(chunk as Buffer);
  } catch (err) {
    if (signal?.aborted) return;
    throw cut(err);
  } finally {
    res.destroy();
  }
  if (parser.pending) throw cut(new Error('in the middle of a frame'));
}

/** Any GET answered with Nomad's frames (the agent monitor as well): opened, so that a 4xx throws here. */
export async function openFrames(client: ApiClient, path: string, query: Record<string, string | number | boolean | undefined>, signal?: AbortSignal): Promise<AsyncGenerator<Frame>> {
  return framesOf(await openStream(client, path, query, signal), signal);
}

/** GET /v1/client/fs/logs/:alloc: a task's log as frames (opened, so that a 4xx throws here). */
export async function allocLogs(client: ApiClient, allocId: string, opts: LogsOptions): Promise<AsyncGenerator<Frame>> {
  const res = await openStream(
    client,
    fsPath('logs', allocId),
    { task: opts.task, type: opts.type, follow: opts.follow ?? false, origin: opts.origin ?? 'start', offset: opts.offset ?? 0, namespace: opts.namespace },
    opts.signal,
  );
  return framesOf(res, opts.signal);
}

/** GET /v1/client/fs/stream/:alloc: a file as frames, following it unless `follow: false`. */
export async function allocStream(client: ApiClient, allocId: string, opts: StreamOptions): Promise<AsyncGenerator<Frame>> {
  const res = await openStream(
    client,
    fsPath('stream', allocId),
    { path: opts.path, follow: opts.follow ?? true, origin: opts.origin ?? 'start', offset: opts.offset ?? 0, namespace: opts.namespace },
    opts.signal,
  );
  return framesOf(res, opts.signal);
}

async function* bytesOf(res: ApiResponse): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of res) yield chunk as Buffer;
  } catch (err) {
    throw cut(err);
  } finally {
    res.destroy();
  }
}

/** GET /v1/client/fs/cat/:alloc: a file's bytes as they arrive. */
export async function allocCat(client: ApiClient, allocId: string, path: string, namespace?: string): Promise<AsyncGenerator<Buffer>> {
  return bytesOf(await openStream(client, fsPath('cat', allocId), { path, namespace }));
}

/** GET /v1/client/fs/readat/:alloc: `limit` bytes (0: to the end) from `offset`, as they arrive. */
export async function allocReadAt(client: ApiClient, allocId: string, path: string, offset: number, limit: number, namespace?: string): Promise<AsyncGenerator<Buffer>> {
  return bytesOf(await openStream(client, fsPath('readat', allocId), { path, offset, limit, namespace }));
}

export async function allocList(client: ApiClient, allocId: string, path: string, namespace?: string): Promise<AllocFileInfo[]> {
  return (await client.scheduler<AllocFileInfo[]>('GET', fsPath('ls', allocId), { query: { path, ...(namespace ? { namespace } : {}) } })).body ?? [];
}

export async function allocStat(client: ApiClient, allocId: string, path: string, namespace?: string): Promise<AllocFileInfo> {
  return (await client.scheduler<AllocFileInfo>('GET', fsPath('stat', allocId), { query: { path, ...(namespace ? { namespace } : {}) } })).body;
}

/** Everything a byte or frame reader yields, as one buffer (frames: their data). */
export async function collect(source: AsyncIterable<Buffer | Frame>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const item of source) parts.push(Buffer.isBuffer(item) ? item : item.data);
  return Buffer.concat(parts);
}
