/**
 * `svc monitor`: print the server's log lines as they are logged, as `nomad monitor` does, until Ctrl-C
 * or the server ends the stream. The command's declaration is in src/cli/commands/agent/monitor.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { ApiError } from '../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../command-failure.js';
import { interruption } from './alloc-read.js';
import { agentMonitor } from '../../api/agent.js';

export function monitor(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const stop = interruption();
    try {
      const frames = await agentMonitor(client, { logLevel: ctx.flags['log-level'] as string | undefined, json: ctx.flags.json === true, signal: stop.signal }).catch((err: unknown) => {
        if (err instanceof ApiError) throw new CommandFailure(`Error starting monitor: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
        throw err;
      });
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
