/**
 * `svc alloc status`: one allocation's screen. The command's declaration is in
 * src/cli/commands/alloc/status.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { reportingFailures } from '../../command-failure.js';
import { parseWireTime, prettyTimeDiff } from '../../output/nomad.js';
import { getAlloc } from '../../../api/allocs.js';
import { apiFailure, resolveAlloc } from '../../resolve/alloc.js';
import { getEval } from '../../../api/evals.js';
import { fetchAllocChecks } from './checks-section.js';
import { formatAllocStatus } from './status-screen.js';
import type { AllocResourceUsage } from '../../../scheduler/wire/resource-usage.js';

export function allocStatus(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const verbose = ctx.flags.verbose === true;
    const stub = await resolveAlloc(client, ctx.args[0], verbose);
    const alloc = await getAlloc(client, stub.ID, stub.Namespace).catch((err: unknown) => apiFailure('querying allocation', err));
    return printSchedulerData(ctx, alloc, async () => {
      const nowMs = Date.now();
      let rescheduleEligibility = '';
      if (alloc.FollowupEvalID) {
        const follow = await getEval(client, alloc.FollowupEvalID, stub.Namespace).catch(() => undefined);
        const at = parseWireTime(follow?.WaitUntil);
        if (at !== undefined && at > nowMs) rescheduleEligibility = prettyTimeDiff(at, nowMs);
      }
      const short = ctx.flags.short === true;
      // As in Nomad, checks that cannot be read leave their table out rather than failing the command.
      const checks = short ? {} : await fetchAllocChecks(client, alloc.ID, stub.Namespace).catch(() => ({}));
      let stats: AllocResourceUsage | undefined;
      if (ctx.flags.stats === true && !short) {
        // As in Nomad: the screen still shows, with a warning, when the node cannot be asked.
        stats = await client
          .scheduler<AllocResourceUsage>('GET', `/v1/client/allocation/${alloc.ID}/stats`, { query: { namespace: stub.Namespace } })
          .then((r) => r.body)
          .catch((err: unknown) => {
            ctx.io.err(`Couldn't retrieve stats: ${(err as Error).message}`);
            return undefined;
          });
      }
      return formatAllocStatus(alloc, { verbose, short, nowMs, rescheduleEligibility, checks, stats });
    });
  });
}
