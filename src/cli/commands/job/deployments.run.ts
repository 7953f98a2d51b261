/**
 * `svc job deployments`: a job's deployments, newest first, or its latest one. The command's declaration
 * is in src/cli/commands/job/deployments.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { idLength } from '../../output/nomad.js';
import { deploymentListTable, formatDeployment } from '../../output/deployment.js';
import { jobDeployments as listJobDeployments, jobLatestDeployment } from '../../../api/deployments.js';
import { reportingFailures } from '../../command-failure.js';
import { resolveJob } from '../../resolve/job.js';
import { orFail } from '../../failures/api.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

export function jobDeployments(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const length = idLength(ctx.flags.verbose);
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0].trim());
    if (ctx.flags.latest === true) {
      const latest = await orFail('Error retrieving deployments', () => jobLatestDeployment(client, job.ID, job.Namespace));
      return printSchedulerData(ctx, latest ?? null, () => (latest ? formatDeployment(latest, length) : 'No deployment found'));
    }
    const { deployments } = await orFail('Error retrieving deployments', () =>
      listJobDeployments(client, job.ID, { all: ctx.flags.all === true, namespace: job.Namespace }),
    );
    return printSchedulerData(ctx, deployments, () => deploymentListTable(deployments, length));
  });
}
