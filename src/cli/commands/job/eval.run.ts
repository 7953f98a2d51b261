/**
 * `svc job eval`: force an evaluation of a job, then follow it. The command's declaration is in
 * src/cli/commands/job/eval.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength, limit, quote } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { evaluateJob } from '../../../api/jobs.js';
import { monitorEvaluation } from '../../monitor.js';

export function jobEval(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    let evalId: string;
    try {
      evalId = (await evaluateJob(client, job.ID, { forceReschedule: ctx.flags['force-reschedule'] === true, namespace: job.Namespace })).EvalID;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error evaluating job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    const length = idLength(ctx.flags.verbose);
    if (ctx.flags.detach === true) {
      ctx.io.out(`Created eval ID: ${quote(limit(evalId, length))}`);
      return 0;
    }
    return monitorEvaluation({ client, io: ctx.io, length, namespace: job.Namespace }, evalId);
  });
}
