/**
 * `svc job deployments`: a job's deployments, newest first, or its latest one. The command's declaration
 * is in src/cli/commands/job/deployments.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { idLength } from '../output/nomad.js';
import { deploymentListTable, formatDeployment } from '../output/deployment.js';
import { jobDeployments as listJobDeployments, jobLatestDeployment } from '../../api/deployments.js';
import { reportingFailures, resolveJob } from './job-status.js';
import { orFail } from './deployment-errors.js';

export function jobDeployments(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const length = idLength(ctx.flags.verbose);
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0].trim());
    if (ctx.flags.latest === true) {
      const latest = await orFail('Error retrieving deployments', () => jobLatestDeployment(client, job.ID, job.Namespace));
      if (ctx.flags.json === true) ctx.io.out(JSON.stringify(latest, null, 4));
      else ctx.io.out(latest ? formatDeployment(latest, length) : 'No deployment found');
      return 0;
    }
    const { deployments } = await orFail('Error retrieving deployments', () =>
      listJobDeployments(client, job.ID, { all: ctx.flags.all === true, namespace: job.Namespace }),
    );
    if (ctx.flags.json === true) {
      ctx.io.out(JSON.stringify(deployments, null, 4));
      return 0;
    }
    ctx.io.out(deploymentListTable(deployments, length));
    return 0;
  });
}
