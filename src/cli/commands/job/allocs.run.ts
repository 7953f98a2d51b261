/**
 * `svc job allocs`: the allocations of a job. The command's declaration is in
 * src/cli/commands/job/allocs.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { allocListTable, newestFirst } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { jobAllocations } from '../../../api/jobs.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

export function jobAllocs(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    const allocs = newestFirst(await jobAllocations(client, job.ID, { all: ctx.flags.all === true, namespace: job.Namespace }));
    return printSchedulerData(ctx, allocs, () => allocListTable(allocs, ctx.flags.verbose === true, Date.now()));
  });
}
