/**
 * `svc monitor`: print the server's log lines as they are logged, as `nomad monitor` does, until Ctrl-C
 * or the server ends the stream. The command's declaration is in src/cli/commands/agent/monitor.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { interruption } from '../../follow/interruption.js';
import { agentMonitor } from '../../../api/agent.js';
import { orFail } from '../../failures/api.js';

export function monitor(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const stop = interruption();
    try {
      const frames = await orFail('Error starting monitor', () =>
        agentMonitor(client, { logLevel: ctx.flags['log-level'] as string | undefined, json: ctx.flags.json === true, signal: stop.signal }),
      );
      for await (const frame of frames) if (frame.data.length > 0) ctx.io.stdout.write(frame.data);
      if (stop.signal.aborted) return 0;
      throw new CommandFailure('Remote side ended the monitor! This usually means that the\nremote side has exited or crashed.');
    } catch (err) {
      if (stop.signal.aborted) return 0;
      throw err;
    } finally {
      stop.dispose();
    }
  });
}
