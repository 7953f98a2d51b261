/**
 * `svc alloc checks`: the latest results of an allocation's service checks, one key/value block per
 * check as Nomad's `alloc checks` prints them, and the `Nomad Service Checks:` table of `alloc status`.
 * The command's declaration is in src/cli/commands/alloc/checks.ts.
 */
import type { ApiClient } from '../../api/http/client.js';
import type { AllocCheckResults, CheckQueryResult } from '../../scheduler/wire/check-result.js';
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { reportingFailures } from '../command-failure.js';
import { printSchedulerData } from '../output/scheduler-output.js';
import { formatTable } from '../output/format.js';
import { formatKV, formatTime } from '../output/nomad.js';
import { apiFailure, resolveAlloc } from '../resolve/alloc.js';

export function fetchAllocChecks(client: ApiClient, allocId: string, namespace: string): Promise<AllocCheckResults> {
  return client.scheduler<AllocCheckResults>('GET', `/v1/client/allocation/${allocId}/checks`, { query: { namespace } }).then((r) => r.body ?? {});
}

const taskOf = (r: CheckQueryResult) => r.Task || '(group)';

/** Results in a stable order (the API's is a map): by service, task and check name. */
function ordered(results: AllocCheckResults): CheckQueryResult[] {
  const key = (r: CheckQueryResult) => [r.Service, taskOf(r), r.Check, r.ID].join('\0');
  return Object.values(results).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function formatAllocChecks(results: AllocCheckResults): string {
  const blocks = ordered(results).map((r) => {
    const rows: Array<[string, string]> = [
      ['ID', r.ID],
      ['Name', r.Check],
      ['Group', r.Group],
      ['Task', taskOf(r)],
      ['Service', r.Service],
      ['Status', r.Status],
    ];
    if (r.StatusCode) rows.push(['StatusCode', String(r.StatusCode)]);
    rows.push(['Mode', r.Mode], ['Timestamp', formatTime(new Date(r.Timestamp * 1000))], ['Output', r.Output]);
    return formatKV(rows) + '\n';
  });
  return `Status of ${blocks.length} Nomad Service Checks\n\n${blocks.join('')}`;
}

/** `alloc status`'s `Nomad Service Checks:` table, sorted as Nomad sorts its rows; "" when there are no checks. */
export function checksSection(results: AllocCheckResults): string {
  const rows = Object.values(results).map((r) => [r.Service, taskOf(r), r.Check, r.Mode, r.Status]);
  if (rows.length === 0) return '';
  rows.sort((a, b) => (a.join('|') < b.join('|') ? -1 : a.join('|') > b.join('|') ? 1 : 0));
  return 'Nomad Service Checks:\n' + formatTable(['Service', 'Task', 'Name', 'Mode', 'Status'], rows);
}

export function allocChecks(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
    const results = await fetchAllocChecks(client, stub.ID, stub.Namespace).catch((err: unknown) => apiFailure('querying allocation checks', err));
    return printSchedulerData(ctx, results, () => formatAllocChecks(results));
  });
}
