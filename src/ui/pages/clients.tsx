/**
 * /ui/clients and /ui/clients/<id>, as Nomad's UI names the nodes: the list (status, eligibility,
 * drain, drivers), and a node's page (its facts, drivers with their health, its allocations), live.
 */
import { useLive } from '../live.js';
import { Link } from '../router.js';
import { ago, shortId } from '../format.js';
import type { AllocStub, DriverInfo, Node, NodeStub } from '../types.js';
import { Problem } from './problem.js';
import { AllocationRows } from './job.js';

const clientAddress = (id: string) => `/clients/${encodeURIComponent(id)}`;

function healthyDrivers(drivers: Record<string, DriverInfo> | null | undefined): string {
  return Object.entries(drivers ?? {})
    .filter(([, d]) => d.Detected && d.Healthy)
    .map(([name]) => name)
    .sort()
    .join(', ');
}

export function ClientsPage() {
  const nodes = useLive<NodeStub[]>('/v1/nodes');
  return (
    <section>
      <h1>Clients</h1>
      {nodes.error && <Problem error={nodes.error} />}
      {nodes.data && nodes.data.length === 0 && <p class="muted">No nodes have registered.</p>}
      {nodes.data && nodes.data.length > 0 && (
        <table class="list" data-testid="clients">
          <thead>
            <tr>
              <th>ID</th>
              <th>Name</th>
              <th>Datacenter</th>
              <th>Pool</th>
              <th>Status</th>
              <th>Eligibility</th>
              <th>Drain</th>
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
                <td>{n.Datacenter}</td>
                <td>{n.NodePool}</td>
                <td>
                  <span class={`status status-${n.Status}`}>{n.Status}</span>
                </td>
                <td>{n.SchedulingEligibility}</td>
                <td>{n.Drain ? 'draining' : 'no'}</td>
                <td>{healthyDrivers(n.Drivers)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function NodeAllocations(props: { id: string }) {
  const allocs = useLive<AllocStub[]>(`/v1/node/${encodeURIComponent(props.id)}/allocations`);
  if (allocs.error) return <Problem error={allocs.error} />;
  if (!allocs.data) return <p class="muted">Loading…</p>;
  if (allocs.data.length === 0) return <p class="muted">No allocations on this node.</p>;
  return <AllocationRows allocs={allocs.data} />;
}

export function ClientPage(props: { id: string }) {
  const node = useLive<Node>(`/v1/node/${encodeURIComponent(props.id)}`);
  const n = node.data;
  const drivers = Object.entries(n?.Drivers ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section>
      <p class="crumbs">
        <Link to="/clients">Clients</Link>
      </p>
      <h1>
        {n?.Name ?? shortId(props.id)} {n && <span class={`status status-${n.Status}`}>{n.Status}</span>}
      </h1>
      {node.error && <Problem error={node.error} />}
      {n && (
        <dl class="facts">
          <dt>ID</dt>
          <dd>{n.ID}</dd>
          <dt>Datacenter</dt>
          <dd>{n.Datacenter}</dd>
          <dt>Node pool</dt>
          <dd>{n.NodePool}</dd>
          <dt>Address</dt>
          <dd>{n.HTTPAddr}</dd>
          <dt>Eligibility</dt>
          <dd>{n.SchedulingEligibility}</dd>
          <dt>Drain</dt>
          <dd>{n.DrainStrategy ? 'draining' : 'no'}</dd>
        </dl>
      )}
      <h2>Drivers</h2>
      {n && (
        <table class="list" data-testid="drivers">
          <thead>
            <tr>
              <th>Driver</th>
              <th>Detected</th>
              <th>Healthy</th>
              <th>Health</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {drivers.map(([name, d]) => (
              <tr key={name}>
                <td>{name}</td>
                <td>{d.Detected ? 'yes' : 'no'}</td>
                <td>{d.Healthy ? 'yes' : 'no'}</td>
                <td>{d.HealthDescription}</td>
                <td>{d.UpdateTime ? ago(Date.parse(d.UpdateTime) * 1e6) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Allocations</h2>
      <NodeAllocations id={props.id} />
    </section>
  );
}
