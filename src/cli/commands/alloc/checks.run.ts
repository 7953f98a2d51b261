/** `svc alloc checks`: the latest results of an allocation's service checks, one key/value block per check as Nomad's `alloc checks` prints them. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { apiFailure, resolveAlloc } from '../../resolve/alloc.js';
import { fetchAllocChecks, formatAllocChecks } from './checks-section.js';

export function allocChecks(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
    const results = await fetchAllocChecks(client, stub.ID, stub.Namespace).catch((err: unknown) => apiFailure('querying allocation checks', err));
    return printSchedulerData(ctx, results, () => formatAllocChecks(results));
  });
}
