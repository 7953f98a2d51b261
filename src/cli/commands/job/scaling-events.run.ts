/**
 * `svc job scaling-events`: a job's scaling events, newest first across its groups. The command's
 * declaration is in src/cli/commands/job/scaling-events.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { formatTable } from '../../output/format.js';
import { formatNomadTime } from '../../output/nomad.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { resolveJob } from '../../resolve/job.js';
import { jobScaleStatus, type ScalingEvent } from '../../../api/job-scale.js';

export function jobScalingEvents(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    let groups;
    try {
      groups = (await jobScaleStatus(client, job.ID, job.Namespace)).TaskGroups;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error listing scaling events: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    const events: Array<{ group: string; event: ScalingEvent }> = [];
    for (const [group, status] of Object.entries(groups)) for (const event of status.Events ?? []) events.push({ group, event });
    events.sort((a, b) => b.event.Time - a.event.Time);
    // The data is the events, newest first, each with the task group it belongs to.
    const data = events.map(({ group, event }) => ({ TaskGroup: group, ...event }));
    return printSchedulerData(ctx, data, () => {
      if (events.length === 0) return 'No events found';
      const verbose = ctx.flags.verbose === true;
      const headers = ['Task Group', 'Count', 'PrevCount', ...(verbose ? ['Error', 'Message', 'Eval ID'] : []), 'Date'];
      const rows = events.map(({ group, event: e }) => [
        group,
        e.Count === null ? '' : String(e.Count),
        String(e.PreviousCount),
        ...(verbose ? [String(e.Error), e.Message, e.EvalID ?? ''] : []),
        formatNomadTime(e.Time),
      ]);
      return formatTable(headers, rows).trimEnd();
    });
  });
}
