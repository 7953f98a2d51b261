/**
 * What `svc alloc logs` and `svc alloc fs` share: the allocation named by an ID prefix or (-job) by its
 * job, Nomad's -tail/-n/-c options, and output that waits for a slow reader.
 */
import type { Writable } from 'node:stream';
import type { ApiClient } from '../../../api/http/client.js';
import { getAlloc, type Allocation, type AllocStub } from '../../../api/allocs.js';
import { jobAllocations } from '../../../api/jobs.js';
import type { CommandContext } from '../../define.js';
import { CommandFailure } from '../../command-failure.js';
import { apiFailure, resolveAlloc } from '../../resolve/alloc.js';
import { resolveJob } from '../../resolve/job.js';

/** Nomad's guess at a line's length, to turn -n lines into bytes to ask for (bytesToLines). */
const BYTES_PER_LINE = 120;
/** Nomad's -tail default: 10 lines. */
const DEFAULT_TAIL_LINES = 10;

const newest = (allocs: AllocStub[]) => allocs.reduce<AllocStub | undefined>((a, b) => (!a || b.CreateIndex > a.CreateIndex ? b : a), undefined);

/**
 * The allocation the command is about, in full (its job names the tasks). With -job the argument is a
 * job ID or prefix, and its most recent running allocation is taken, else its most recent one (Nomad
 * takes a random running one; the most recent is what a user re-running a command expects to see).
 */
export async function allocForRead(ctx: CommandContext, client: ApiClient): Promise<Allocation> {
  let stub: AllocStub;
  if (ctx.flags.job === true) {
    const job = await resolveJob(ctx, client, ctx.args[0]);
    const allocs = await jobAllocations(client, job.ID, { namespace: job.Namespace }).catch((err: unknown) => apiFailure('fetching allocations', err));
    const picked = newest(allocs.filter((a) => a.ClientStatus === 'running')) ?? newest(allocs);
    if (!picked) throw new CommandFailure(`Error fetching allocations: job "${job.ID}" doesn't exist or it has no allocations`);
    stub = picked;
  } else {
    stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
  }
  return getAlloc(client, stub.ID, stub.Namespace).catch((err: unknown) => apiFailure('querying allocation', err));
}

export type Tail = { lines: number } | { bytes: number };

/** -tail with -n or -c; -n 10 when neither is given. Undefined without -tail (Nomad ignores -n and -c then). */
export function tailOption(ctx: CommandContext): Tail | undefined {
  if (ctx.flags.tail !== true) return undefined;
  const lines = ctx.flags.n as number | undefined;
  const bytes = ctx.flags.c as number | undefined;
  if (lines !== undefined && bytes !== undefined) throw new CommandFailure('Both -n and -c are not allowed');
  if ((lines ?? 0) < 0 || (bytes ?? 0) < 0) throw new CommandFailure('Invalid size is specified');
  return bytes !== undefined ? { bytes } : { lines: lines ?? DEFAULT_TAIL_LINES };
}

/** Where the last `n` lines of `buf` start (a final newline ends the last line); -1 when it holds fewer. */
export function lastLinesStart(buf: Buffer, n: number): number {
  if (n <= 0) return buf.length;
  let i = buf.length - 1;
  if (buf[i] === 0x0a) i--;
  for (let seen = 0; i >= 0; i--) if (buf[i] === 0x0a && ++seen === n) return i + 1;
  return -1;
}

/**
 * The last `lines` lines, exactly: asks for lines × 120 bytes from the end (Nomad's estimate, where
 * Nomad stops) and asks again for more while that held fewer lines and was not the whole file.
 */
export async function fetchLastLines<R extends { data: Buffer; whole: boolean }>(lines: number, fetch: (bytes: number) => Promise<R>): Promise<{ result: R; text: Buffer }> {
  for (let bytes = Math.max(1, lines) * BYTES_PER_LINE; ; bytes *= 4) {
    const result = await fetch(bytes);
    const start = lastLinesStart(result.data, lines);
    if (start !== -1) return { result, text: result.data.subarray(start) };
    if (result.whole) return { result, text: result.data };
  }
}

/** Writes and waits while the reader is slower than the stream (a pipe into `less`). */
export async function writeOut(out: Writable, chunk: Buffer): Promise<void> {
  if (chunk.length === 0 || out.destroyed) return;
  if (out.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
