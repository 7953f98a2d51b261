/**
 * `svc alloc logs`: a task's stdout or stderr, from the start, the tail, or followed. The command's
 * declaration is in src/cli/commands/alloc/logs.ts. Nomad's behaviour, except that a follow ends by itself
 * once the task is dead and its log drained (the server ends the stream), -f alone on a dead task prints
 * its logs whole rather than nothing, and -n counts lines exactly.
 */
import type { Writable } from 'node:stream';
import type { Allocation } from '../../../api/allocs.js';
import { allocLogs as logFrames, type Frame, type LogsOptions } from '../../../api/fs.js';
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { limit } from '../../output/nomad.js';
import { apiFailure, checkTask, groupTasks } from '../../resolve/alloc.js';
import { allocForRead, fetchLastLines, tailOption, writeOut } from './read.js';
import { interruption } from '../../follow/interruption.js';
import { choose } from '../../prompt.js';

type LogType = 'stdout' | 'stderr';

/**
 * How far back a follow that comes after a -n tail starts, so that it overlaps the tail: what the task
 * wrote between the two requests is in the overlap, and what the tail already printed is skipped by
 * position. A task writing more than this in those milliseconds loses the excess.
 */
const FOLLOW_OVERLAP = 256 * 1024;

/** The task: -task, else the TASK argument (Nomad prefers -task), else the only one, else asked for. */
async function pickTask(ctx: CommandContext, alloc: Allocation): Promise<string> {
  const named = (ctx.flags.task as string | undefined) || ctx.args[1];
  if (named) {
    checkTask(alloc, named);
    return named;
  }
  const names = groupTasks(alloc);
  if (names.length === 1) return names[0];
  const list = names.map((n) => `  * ${n}`).join('\n');
  const unanswerable = new CommandFailure(`Failed to validate task: Allocation "${limit(alloc.ID, 8)}" is running the following tasks:\n${list}\n\nPlease specify the task.`);
  if (names.length === 0) throw unanswerable;
  return choose(ctx.io, 'Which task?', names, unanswerable);
}

/** A rotated log's position: the file's index (`….N`), then the offset in it. */
const fileIndex = (file: string) => Number(/\.(\d+)$/.exec(file)?.[1] ?? 0);

/** The part of a frame's data that lies after `after` (all of it without one). */
function dataAfter(f: Frame, after?: { file: string; offset: number }): Buffer {
  if (!after) return f.data;
  const [fi, ai] = [fileIndex(f.file), fileIndex(after.file)];
  if (fi !== ai) return fi > ai ? f.data : f.data.subarray(f.data.length);
  const start = f.offset - f.data.length;
  return f.data.subarray(Math.min(f.data.length, Math.max(0, after.offset - start)));
}

async function copyFrames(frames: AsyncIterable<Frame>, out: Writable, after?: { file: string; offset: number }): Promise<void> {
  for await (const f of frames) await writeOut(out, dataAfter(f, after));
}

export function allocLogs(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const alloc = await allocForRead(ctx, client);
    const task = await pickTask(ctx, alloc);
    const f = ctx.flags;
    const follow = f.f === true;
    const base = { task, namespace: alloc.Namespace };
    const stop = follow ? interruption() : undefined;
    try {
      const open = (type: LogType, opts: Omit<LogsOptions, 'task' | 'type'>) =>
        logFrames(client, alloc.ID, { ...base, type, ...opts, signal: stop?.signal }).catch((err: unknown) => apiFailure(`reading the ${type} log`, err));
      // -f alone follows both logs from where they are now, each to its own stream (Nomad ≥ 1.7): without
      // timestamps, what was written before cannot be interleaved. A task that is dead writes nothing more,
      // so following it from the end would print nothing: its logs are printed whole instead, and the
      // command ends.
      if (follow && !(f.stdout || f.stderr || f.tail || ((f.n as number) ?? 0) > 0 || ((f.c as number) ?? 0) > 0)) {
        const origin = alloc.TaskStates?.[task]?.State === 'dead' ? 'start' : 'end';
        await Promise.all([
          copyFrames(await open('stdout', { follow: true, origin }), ctx.io.stdout),
          copyFrames(await open('stderr', { follow: true, origin }), ctx.io.stderr),
        ]);
        return 0;
      }
      if (f.stdout && f.stderr) throw new CommandFailure('Unable to support both stdout and stderr');
      const type: LogType = f.stderr ? 'stderr' : 'stdout';
      const tail = tailOption(ctx);
      if (!tail) await copyFrames(await open(type, { follow, origin: 'start' }), ctx.io.stdout);
      else if ('bytes' in tail) await copyFrames(await open(type, { follow, origin: 'end', offset: tail.bytes }), ctx.io.stdout);
      else await tailLines(ctx, open, type, tail.lines, follow);
      return 0;
    } catch (err) {
      if (stop?.signal.aborted) return 0; // Ctrl-C while a request was under way
      throw err;
    } finally {
      stop?.dispose();
    }
  });
}

/** The last `lines` lines, then (with -f) what comes after them. */
async function tailLines(
  ctx: CommandContext,
  open: (type: LogType, opts: Omit<LogsOptions, 'task' | 'type'>) => Promise<AsyncGenerator<Frame>>,
  type: LogType,
  lines: number,
  follow: boolean,
): Promise<void> {
  const { result, text } = await fetchLastLines(lines, async (bytes) => {
    const frames: Frame[] = [];
    for await (const fr of await open(type, { origin: 'end', offset: bytes })) frames.push(fr);
    const data = Buffer.concat(frames.map((fr) => fr.data));
    return { data, whole: data.length < bytes, last: frames.findLast((fr) => fr.data.length > 0) };
  });
  await writeOut(ctx.io.stdout, text);
  if (!follow) return;
  const after = result.last && { file: result.last.file, offset: result.last.offset };
  await copyFrames(await open(type, { follow: true, origin: 'end', offset: FOLLOW_OVERLAP }), ctx.io.stdout, after);
}
