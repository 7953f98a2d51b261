/**
 * `svc alloc fs`: list a directory of an allocation's directory, or print (tail, follow) a file of it,
 * or -stat it. The command's declaration is in src/cli/commands/alloc/fs.ts. Nomad's output; -n counts
 * lines exactly.
 */
import { allocCat, allocList, allocReadAt, allocStat, allocStream, collect, type AllocFileInfo } from '../../../api/fs.js';
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { formatTable } from '../../output/format.js';
import { formatTime, humanIBytes } from '../../output/nomad.js';
import { apiFailure } from '../../resolve/alloc.js';
import { allocForRead, fetchLastLines, tailOption, writeOut } from './read.js';
import { interruption } from '../../follow/interruption.js';

function row(f: AllocFileInfo, machine: boolean, contentType: boolean): string[] {
  const ms = Date.parse(f.ModTime);
  return [
    f.FileMode,
    machine ? String(f.Size) : humanIBytes(f.Size),
    Number.isFinite(ms) && ms >= 1000 ? formatTime(new Date(ms)) : '',
    ...(contentType ? [f.ContentType] : []),
    f.IsDir ? `${f.Name}/` : f.Name,
  ];
}

async function copy(source: AsyncIterable<Buffer | { data: Buffer }>, ctx: CommandContext): Promise<void> {
  for await (const item of source) await writeOut(ctx.io.stdout, Buffer.isBuffer(item) ? item : item.data);
}

export function allocFs(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const alloc = await allocForRead(ctx, client);
    const path = ctx.args[1] ?? '/';
    const ns = alloc.Namespace;
    const machine = ctx.flags.machine === true;
    const failed = (doing: string) => (err: unknown) => apiFailure(doing, err);
    const info = await allocStat(client, alloc.ID, path, ns).catch(failed('reading the file information'));

    if (ctx.flags.stat === true) {
      ctx.io.out(formatTable(['Mode', 'Size', 'Modified Time', 'Content Type', 'Name'], [row(info, machine, true)]));
      return 0;
    }
    if (info.IsDir) {
      const files = await allocList(client, alloc.ID, path, ns).catch(failed('listing the allocation directory'));
      ctx.io.out(formatTable(['Mode', 'Size', 'Modified Time', 'Name'], files.map((f) => row(f, machine, false))));
      return 0;
    }

    const follow = ctx.flags.f === true;
    const tail = tailOption(ctx);
    const stop = follow ? interruption() : undefined;
    const stream = (origin: 'start' | 'end', offset: number) => allocStream(client, alloc.ID, { path, origin, offset, follow: true, namespace: ns, signal: stop?.signal });
    try {
      if (!tail) {
        await copy(await (follow ? stream('start', 0) : allocCat(client, alloc.ID, path, ns)).catch(failed('reading the file')), ctx);
      } else if ('bytes' in tail) {
        const bytes = Math.min(tail.bytes, info.Size);
        await copy(await (follow ? stream('end', bytes) : allocReadAt(client, alloc.ID, path, info.Size - bytes, 0, ns)).catch(failed('tailing the file')), ctx);
      } else {
        // Read what is there up to its size at stat time, then (with -f) stream on from exactly there.
        const { result, text } = await fetchLastLines(tail.lines, async (bytes) => {
          const from = Math.max(0, info.Size - bytes);
          const data = await collect(await allocReadAt(client, alloc.ID, path, from, info.Size - from, ns).catch(failed('tailing the file')));
          return { data, whole: from === 0, end: from + data.length };
        });
        await writeOut(ctx.io.stdout, text);
        if (follow) await copy(await stream('start', result.end).catch(failed('following the file')), ctx);
      }
    } catch (err) {
      if (!stop?.signal.aborted) throw err; // Ctrl-C while a request was under way
    } finally {
      stop?.dispose();
    }
    return 0;
  });
}
