/**
 * `svc job promote`: promote the canaries of a job's latest deployment, then follow the evaluation (as
 * Nomad's job promote). The command's declaration is in src/cli/commands/job/promote.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { quote } from '../../output/nomad.js';
import { jobLatestDeployment, promoteDeployment } from '../../../api/deployments.js';
import { describeApiError, orFail } from '../../failures/api.js';
import { resolveJob } from '../../resolve/job.js';
import { followPromotion } from '../../follow/promotion.js';

export function jobPromote(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0].trim());
    const d = await orFail('Error retrieving deployment', () => jobLatestDeployment(client, job.ID, job.Namespace));
    if (!d) throw new CommandFailure(`Job ${quote(job.ID)} has no deployment to promote`);
    const groups = (ctx.flags.group as string[] | undefined) ?? [];
    let evalId: string;
    try {
      evalId = (await promoteDeployment(client, d.ID, groups, job.Namespace)).EvalID;
    } catch (err) {
      throw new CommandFailure(`Error promoting deployment ${quote(d.ID)} for job ${quote(job.ID)}: ${describeApiError(err)}`);
    }
    if (!evalId) return 0;
    if (ctx.flags.detach === true) {
      ctx.io.out(`Evaluation ID: ${evalId}`);
      return 0;
    }
    return followPromotion(ctx, client, job.Namespace, evalId, d.ID);
  });
}
