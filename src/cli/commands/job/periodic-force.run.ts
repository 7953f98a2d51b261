/**
 * `svc job periodic force`: launch a periodic job's child now, then follow its evaluation. The
 * command's declaration is in src/cli/commands/job/periodic-force.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { jobPath } from '../../../api/jobs.js';
import { resolveJob } from '../../resolve/job.js';
import { monitorEvaluation } from '../../monitor.js';

export function jobPeriodicForce(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    let evalId: string;
    try {
      evalId = (await client.scheduler<{ EvalID: string }>('POST', jobPath(job.ID, '/periodic/force'), { query: { namespace: job.Namespace } })).body.EvalID;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error forcing periodic job "${job.ID}": Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    if (ctx.flags.detach === true) {
      ctx.io.out('Force periodic successful');
      ctx.io.out(`Evaluation ID: ${evalId}`);
      return 0;
    }
    return monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, evalId);
  });
}
