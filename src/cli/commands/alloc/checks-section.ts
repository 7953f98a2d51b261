/** An allocation's service check results, as `svc alloc checks` lists them and `svc alloc status` tables them. */
import type { ApiClient } from '../../../api/http/client.js';
import type { AllocCheckResults, CheckQueryResult } from '../../../scheduler/wire/check-result.js';
import { formatTable } from '../../output/format.js';
import { formatKV, formatTime } from '../../output/nomad.js';

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
