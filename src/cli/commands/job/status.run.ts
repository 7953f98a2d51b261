/** `svc job status`: Nomad's job list, or one job's screen (status-screen.ts). */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { jobPath } from '../../../api/jobs.js';
import { allNamespaces, jobListTable, listJobs, resolveJob } from '../../resolve/job.js';
import { jobScreen, type FullJob } from './status-screen.js';

export function jobStatus(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    if (ctx.args.length === 0) {
      const jobs = await listJobs(client);
      return printSchedulerData(ctx, jobs, () => (jobs.length === 0 ? 'No running jobs' : jobListTable(jobs, allNamespaces(ctx))));
    }
    const stub = await resolveJob(ctx, client, ctx.args[0]);
    const { body: job } = await client.scheduler<FullJob>('GET', jobPath(stub.ID), { query: { namespace: stub.Namespace } });
    return printSchedulerData(ctx, job, () => jobScreen(ctx, client, stub, job));
  });
}
