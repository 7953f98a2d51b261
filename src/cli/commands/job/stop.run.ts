/**
 * `svc job stop` (and `svc stop`): stop jobs, asking first when a prefix named one (on a terminal; elsewhere
 * that takes -yes). The command's declaration is in src/cli/commands/job/stop.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { deregisterJob } from '../../../api/jobs.js';
import { monitorEvaluation } from '../../monitor.js';
import { confirm } from '../../prompt.js';

export function jobStop(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const evalPriority = ctx.flags['eval-priority'] as number | undefined;
    if (evalPriority !== undefined && (evalPriority < 1 || evalPriority > 100)) throw new UsageError('-eval-priority must be between 1 and 100');
    const client = clientFor(ctx);
    let worst = 0;
    for (const typed of ctx.args) {
      const job = await resolveJob(ctx, client, typed);
      if (typed !== job.ID && ctx.flags.yes !== true) {
        const stop = await confirm(ctx.io, `Are you sure you want to stop job "${job.ID}"?`, {
          defaultAnswer: false,
          unanswerable: new UsageError(`"${typed}" is a prefix of job "${job.ID}": pass the full ID, or -yes to stop it without confirmation`),
        });
        if (!stop) {
          ctx.io.out('Cancelling job stop');
          continue;
        }
      }
      let resp;
      try {
        resp = await deregisterJob(client, job.ID, {
          namespace: job.Namespace,
          purge: ctx.flags.purge === true,
          global: ctx.flags.global === true,
          noShutdownDelay: ctx.flags['no-shutdown-delay'] === true,
          evalPriority,
        });
      } catch (err) {
        if (err instanceof ApiError) throw new CommandFailure(`Error deregistering job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
        throw err;
      }
      // Periodic and parameterized jobs are stopped without an evaluation.
      if (!resp.EvalID) continue;
      if (ctx.flags.detach === true) {
        ctx.io.out(resp.EvalID);
        continue;
      }
      const code = await monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, resp.EvalID);
      worst = Math.max(worst, code);
    }
    return worst;
  });
}
