/**
 * `svc service list`: the registered services with their tags, as Nomad prints them. The command's
 * declaration is in src/cli/commands/service/list.ts.
 */
import type { CommandContext } from '../../define.js';
import { reportingFailures } from '../../command-failure.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { formatServiceList, fetchServiceList } from './services.js';

export function serviceList(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const list = await fetchServiceList(ctx);
    return printSchedulerData(ctx, list, () =>
      list.every((ns) => ns.Services.length === 0) ? 'No service registrations found' : formatServiceList(list, ctx.flags.namespace === '*'),
    );
  });
}
