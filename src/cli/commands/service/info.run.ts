/**
 * `svc service info`: one service's registrations, as Nomad prints them. The command's declaration is
 * in src/cli/commands/service/info.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { UsageError } from '../../../shared/errors.js';
import { formatTable } from '../../output/format.js';
import { formatKV, idLength, limit } from '../../output/nomad.js';
import { apiFailure } from '../../resolve/alloc.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { fetchServiceList, formatServiceList } from './services.js';
import type { ServiceRegistration } from '../../../scheduler/state/services.js';

type Registration = ServiceRegistration;

const hostPort = (address: string, port: number) => (port === 0 ? address : `${address.includes(':') ? `[${address}]` : address}:${port}`);

/** The one service the name or prefix means, and its namespace; a CommandFailure when none or several. */
async function resolveService(ctx: CommandContext, prefix: string): Promise<{ name: string; namespace: string }> {
  const list = await fetchServiceList(ctx);
  const matches = list
    .map((ns) => ({ Namespace: ns.Namespace, Services: ns.Services.filter((s) => s.ServiceName.startsWith(prefix)) }))
    .filter((ns) => ns.Services.length > 0);
  const exact = matches.flatMap((ns) => ns.Services.filter((s) => s.ServiceName === prefix).map(() => ns.Namespace));
  if (exact.length === 1) return { name: prefix, namespace: exact[0] };
  const count = matches.reduce((n, ns) => n + ns.Services.length, 0);
  if (count === 0) throw new CommandFailure(`No service registrations with prefix "${prefix}" found`);
  if (count > 1) throw new CommandFailure(`Prefix matched multiple services\n\n${formatServiceList(matches, ctx.flags.namespace === '*').trimEnd()}`);
  return { name: matches[0].Services[0].ServiceName, namespace: matches[0].Namespace };
}

export function serviceInfo(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    if (ctx.args.length !== 1) throw new UsageError('This command takes one argument: <service_name>');
    const { name, namespace } = await resolveService(ctx, ctx.args[0]);
    let regs: Registration[];
    try {
      regs = (await clientFor(ctx).scheduler<Registration[]>('GET', `/v1/service/${encodeURIComponent(name)}`, { query: { namespace } })).body ?? [];
    } catch (err) {
      return apiFailure('listing service registrations', err);
    }
    return printSchedulerData(ctx, regs, () => registrationsText(ctx, regs));
  });
}

/** The registrations as Nomad prints them: a table, or with -verbose one key/value block each. */
function registrationsText(ctx: CommandContext, regs: Registration[]): string {
  if (regs.length === 0) return 'No service registrations found';
  // Several jobs may register the same name: Nomad groups them by job ID, in order.
  const sorted = [...regs].sort((a, b) => (a.JobID < b.JobID ? -1 : a.JobID > b.JobID ? 1 : 0));
  const tags = (r: Registration) => `[${(r.Tags ?? []).join(',')}]`;
  if (ctx.flags.verbose === true) {
    const blocks = sorted.map((r) =>
      formatKV([
        ['ID', r.ID],
        ['Service Name', r.ServiceName],
        ['Namespace', r.Namespace],
        ['Job ID', r.JobID],
        ['Alloc ID', r.AllocID],
        ['Node ID', r.NodeID],
        ['Datacenter', r.Datacenter],
        ['Address', `${r.Address}:${r.Port}`],
        ['Tags', tags(r)],
      ]),
    );
    return blocks.join('\n');
  }
  const length = idLength(false);
  return formatTable(
    ['Job ID', 'Address', 'Tags', 'Node ID', 'Alloc ID'],
    sorted.map((r) => [r.JobID, hostPort(r.Address, r.Port), tags(r), limit(r.NodeID, length), limit(r.AllocID, length)]),
  );
}
