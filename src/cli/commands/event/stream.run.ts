/** `svc event stream`: the event stream, one line per event or (-json) one frame per line, until Ctrl-C. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { interruption } from '../../follow/interruption.js';
import { eventStream } from '../../../api/events.js';
import { orFail } from '../../failures/api.js';

export function eventStreamCommand(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const index = (ctx.flags.index as number | undefined) ?? 0;
    if (!Number.isSafeInteger(index) || index < 0) throw new CommandFailure(`-index must be a whole number of 0 or more, got ${index}`);
    const json = ctx.flags.json === true;
    const stop = interruption();
    try {
      const frames = await orFail('Error starting the event stream', () =>
        eventStream(client, { topics: (ctx.flags.topic as string[] | undefined) ?? [], index, signal: stop.signal }),
      );
      for await (const frame of frames) {
        if (json) ctx.io.stdout.write(`${JSON.stringify(frame)}\n`);
        else for (const e of frame.Events) ctx.io.stdout.write(`${e.Index} ${e.Topic} ${e.Type} ${e.Key}\n`);
      }
      if (stop.signal.aborted) return 0;
      throw new CommandFailure('The server ended the event stream: it stopped, or this client fell too far behind and was cut off.');
    } catch (err) {
      if (stop.signal.aborted) return 0;
      throw err;
    } finally {
      stop.dispose();
    }
  });
}
