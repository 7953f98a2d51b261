/**
 * /ui/clients, as Nomad's UI names the nodes: status, eligibility, drain, datacenter, pool, class and
 * the running allocations of each, live. Filtered by status and by a search of names and IDs, a page at
 * a time; the server does the filtering and paging (a filter expression, per_page and next_token), so a
 * cluster of thousands of nodes sends the browser one page. The filters are kept in the address, so a
 * reload or a shared link shows the same list.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLive } from '../live.js';
import { Link, navigate, withQuery, type Location } from '../router.js';
import { shortId } from '../format.js';
import type { AllocStub, DriverInfo, NodeStub } from '../types.js';
import { Problem } from './problem.js';

const PER_PAGE = '50';

export const clientAddress = (id: string) => `/clients/${encodeURIComponent(id)}`;

/** The status filter's choices: a node status, or what Nomad's UI lists beside them (its eligibility, its drain). */
const STATUS_FILTERS: Record<string, string> = {
  ready: 'Status == "ready"',
  initializing: 'Status == "initializing"',
  down: 'Status == "down"',
  disconnected: 'Status == "disconnected"',
  ineligible: 'SchedulingEligibility == "ineligible"',
  draining: 'DrainStrategy is not nil',
};

/** A string literal of the filter language: a raw string where it can be, else a quoted one (Go's escapes are JSON's). */
const filterLiteral = (s: string) => (s.includes('`') ? JSON.stringify(s) : `\`${s}\``);

const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server-side filter for a status choice and a search (a name, case aside, or the start of an ID). */
function nodeFilter(status: string, search: string): string {
  const parts: string[] = [];
  if (STATUS_FILTERS[status]) parts.push(STATUS_FILTERS[status]);
  const q = search.trim();
  if (q) parts.push(`(Name matches ${filterLiteral(`(?i)${regexEscape(q)}`)} or ID matches ${filterLiteral(`^${regexEscape(q.toLowerCase())}`)})`);
  return parts.join(' and ');
}

function healthyDrivers(drivers: Record<string, DriverInfo> | null | undefined): string {
  return Object.entries(drivers ?? {})
    .filter(([, d]) => d.Detected && d.Healthy)
    .map(([name]) => name)
    .sort()
    .join(', ');
}

/**
 * The running allocations the token may see on each node of the page; undefined until they are read.
 * Only those of the page's nodes are asked for, so a page costs the same in a cluster of any size.
 */
function useRunningCounts(nodeIds: string[] | undefined): Map<string, number> | undefined {
  const filter = nodeIds?.length ? `ClientStatus == "running" and (${nodeIds.map((id) => `NodeID == ${filterLiteral(id)}`).join(' or ')})` : undefined;
  const allocs = useLive<AllocStub[]>(filter ? '/v1/allocations' : undefined, { namespace: '*', filter, task_states: 'false' });
  return useMemo(() => {
    if (!allocs.data) return undefined;
    const counts = new Map<string, number>();
    for (const a of allocs.data) counts.set(a.NodeID, (counts.get(a.NodeID) ?? 0) + 1);
    return counts;
  }, [allocs.data]);
}

/** How long the search box waits for typing to pause before the address (and so both queries) follows it. */
const SEARCH_PAUSE_MS = 250;

/**
 * The search box's text, put in the address once typing pauses: each address change restarts the nodes'
 * and the allocations' blocking queries, which a change per keystroke would do for nothing.
 */
function useSearchBox(loc: Location, search: string): [string, (text: string) => void] {
  const [typed, setTyped] = useState(search);
  const sent = useRef(search);
  // The address changed otherwise (back, forward, a link): the box shows it.
  useEffect(() => {
    if (search !== sent.current) {
      sent.current = search;
      setTyped(search);
    }
  }, [search]);
  useEffect(() => {
    if (typed === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = typed;
      navigate(withQuery('/clients', loc, { search: typed, next_token: undefined }), { replace: true });
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, loc]);
  return [typed, setTyped];
}

export function ClientsPage(props: { loc: Location }) {
  const { loc } = props;
  const status = loc.query.get('status') ?? '';
  const search = loc.query.get('search') ?? '';
  const page = loc.query.get('next_token') ?? '';
  const [typed, setTyped] = useSearchBox(loc, search);
  const nodes = useLive<NodeStub[]>('/v1/nodes', { filter: nodeFilter(status, search), per_page: PER_PAGE, next_token: page });
  const counts = useRunningCounts(useMemo(() => nodes.data?.map((n) => n.ID), [nodes.data]));
  const filtered = status !== '' || search !== '';
  return (
    <section>
      <h1>Clients</h1>
      <div class="toolbar">
        <label>
          Status{' '}
          <select data-testid="status-filter" value={status} onChange={(e) => navigate(withQuery('/clients', loc, { status: (e.target as HTMLSelectElement).value, next_token: undefined }), { replace: true })}>
            <option value="">All</option>
            {Object.keys(STATUS_FILTERS).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input type="search" data-testid="client-search" placeholder="Name or ID prefix" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </label>
      </div>
      {nodes.error && <Problem error={nodes.error} />}
      {nodes.data && nodes.data.length === 0 && <p class="muted">{filtered ? 'No nodes match.' : 'No nodes have registered.'}</p>}
      {nodes.data && nodes.data.length > 0 && (
        <table class="list" data-testid="clients">
          <thead>
            <tr>
              <th>ID</th>
              <th>Name</th>
              <th>Status</th>
              <th>Eligibility</th>
              <th>Drain</th>
              <th>Datacenter</th>
              <th>Pool</th>
              <th>Class</th>
              <th>Allocations</th>
              <th>Drivers</th>
            </tr>
          </thead>
          <tbody>
            {nodes.data.map((n) => (
              <tr key={n.ID}>
                <td>
                  <Link to={clientAddress(n.ID)}>{shortId(n.ID)}</Link>
                </td>
                <td>{n.Name}</td>
                <td>
                  <span class={`status status-${n.Status}`}>{n.Status}</span>
                </td>
                <td>{n.SchedulingEligibility}</td>
                <td>{n.Drain ? 'draining' : 'no'}</td>
                <td>{n.Datacenter}</td>
                <td>{n.NodePool}</td>
                <td>{n.NodeClass || <span class="muted">none</span>}</td>
                <td data-testid="alloc-count">{counts ? (counts.get(n.ID) ?? 0) : ''}</td>
                <td>{healthyDrivers(n.Drivers)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager">
        {page && <Link to={withQuery('/clients', loc, { next_token: undefined })}>First page</Link>}
        {nodes.nextToken && <Link to={withQuery('/clients', loc, { next_token: nodes.nextToken })}>Next page</Link>}
      </nav>
    </section>
  );
}
