/**
 * /ui/clients/<id>: one node as Nomad's UI shows it: its facts and drain, the actions on it (drain,
 * eligibility) for a token that may write nodes, its resources, drivers with their health, the
 * allocations placed on it, its host volumes, attributes (searchable) and meta, and its events. Two views are live:
 * the node's and its allocations'.
 */
import { useState } from 'preact/hooks';
import { useLive } from '../live.js';
import { jobAddress, Link } from '../router.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { AllocStub, Node } from '../types.js';
import { Problem } from './problem.js';
import { NodeActions } from './client-actions.js';

/** The allocations placed on the node, newest first, each with its job (the node is the page's). */
function NodeAllocations(props: { id: string }) {
  const allocs = useLive<AllocStub[]>(`/v1/node/${encodeURIComponent(props.id)}/allocations`);
  if (allocs.error) return <Problem error={allocs.error} />;
  if (!allocs.data) return <p class="muted">Loading…</p>;
  if (allocs.data.length === 0) return <p class="muted">No allocations on this node.</p>;
  const sorted = [...allocs.data].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="list" data-testid="allocations">
      <thead>
        <tr>
          <th>ID</th>
          <th>Job</th>
          <th>Namespace</th>
          <th>Task group</th>
          <th>Desired</th>
          <th>Status</th>
          <th>Version</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((a) => (
          <tr key={a.ID}>
            <td>
              <Link to={`/allocations/${encodeURIComponent(a.ID)}`}>{shortId(a.ID)}</Link>
            </td>
            <td>
              <Link to={jobAddress(a.JobID, a.Namespace)}>{a.JobID}</Link>
            </td>
            <td>{a.Namespace}</td>
            <td>{a.TaskGroup}</td>
            <td>{a.DesiredStatus}</td>
            <td>
              <span class={`status status-${a.ClientStatus}`}>{a.ClientStatus}</span>
            </td>
            <td>{a.JobVersion ?? 0}</td>
            <td title={fromNanos(a.CreateTime)}>{ago(a.CreateTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const sinceRfc3339 = (t: string | undefined) => (t && !t.startsWith('0001-') ? ago(Date.parse(t) * 1e6) : '');

/** A key/value table (attributes, meta) with a search over both; the search stays while the node changes. */
function KeyValues(props: { entries: Record<string, string> | null | undefined; testid: string; what: string }) {
  const [query, setQuery] = useState('');
  const all = Object.entries(props.entries ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (all.length === 0) return <p class="muted">No {props.what}.</p>;
  const q = query.trim().toLowerCase();
  const shown = q ? all.filter(([k, v]) => k.toLowerCase().includes(q) || v.toLowerCase().includes(q)) : all;
  return (
    <>
      <div class="toolbar">
        <input type="search" data-testid={`${props.testid}-search`} placeholder={`Search ${props.what}`} value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
        <span class="muted">
          {shown.length} of {all.length}
        </span>
      </div>
      <table class="list kv" data-testid={props.testid}>
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(([k, v]) => (
            <tr key={k}>
              <td>{k}</td>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Resources(props: { node: Node }) {
  const total = props.node.NodeResources;
  const reserved = props.node.ReservedResources;
  const rows: Array<[string, number | undefined, number | undefined, string]> = [
    ['CPU', total?.Cpu?.CpuShares, reserved?.Cpu?.CpuShares, 'MHz'],
    ['Memory', total?.Memory?.MemoryMB, reserved?.Memory?.MemoryMB, 'MiB'],
    ['Disk', total?.Disk?.DiskMB, reserved?.Disk?.DiskMB, 'MiB'],
  ];
  return (
    <table class="list" data-testid="resources">
      <thead>
        <tr>
          <th>Resource</th>
          <th>Total</th>
          <th>Reserved</th>
          <th>For allocations</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, t, r, unit]) => (
          <tr key={name}>
            <td>{name}</td>
            <td>{t === undefined ? '' : `${t} ${unit}`}</td>
            <td>{r ? `${r} ${unit}` : 'none'}</td>
            <td>{t === undefined ? '' : `${t - (r ?? 0)} ${unit}`}</td>
          </tr>
        ))}
        {total?.Cpu?.TotalCpuCores ? (
          <tr>
            <td>CPU cores</td>
            <td>{total.Cpu.TotalCpuCores}</td>
            <td />
            <td />
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

function DrainFacts(props: { node: Node }) {
  const { DrainStrategy: drain, LastDrain: last } = props.node;
  if (drain) {
    const deadline = drain.Deadline < 0 ? 'forced' : drain.Deadline === 0 ? 'none' : drain.ForceDeadline && !drain.ForceDeadline.startsWith('0001-') ? new Date(drain.ForceDeadline).toLocaleString() : `${drain.Deadline / 1e9}s`;
    return (
      <dd data-testid="drain-state">
        draining since {sinceRfc3339(drain.StartedAt)}; deadline {deadline}
        {drain.IgnoreSystemJobs ? '; system jobs stay' : ''}
      </dd>
    );
  }
  return <dd data-testid="drain-state">{last ? `no (last drain ${last.Status} ${sinceRfc3339(last.UpdatedAt)})` : 'no'}</dd>;
}

function HostVolumes(props: { node: Node }) {
  const volumes = Object.entries(props.node.HostVolumes ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (volumes.length === 0) return null;
  return (
    <>
      <h2>Host volumes</h2>
      <table class="list" data-testid="host-volumes">
        <thead>
          <tr>
            <th>Name</th>
            <th>Path</th>
            <th>Access</th>
          </tr>
        </thead>
        <tbody>
          {volumes.map(([name, v]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>{v.Path}</td>
              <td>{v.ReadOnly ? 'read only' : 'read and write'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Events(props: { node: Node }) {
  const events = [...(props.node.Events ?? [])].reverse();
  if (events.length === 0) return <p class="muted">No events.</p>;
  return (
    <table class="list" data-testid="events">
      <thead>
        <tr>
          <th>Time</th>
          <th>Subsystem</th>
          <th>Message</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e, i) => (
          <tr key={`${e.Timestamp}-${i}`}>
            <td title={e.Timestamp}>{sinceRfc3339(e.Timestamp)}</td>
            <td>{e.Subsystem}</td>
            <td>{e.Message}</td>
            <td>
              {Object.entries(e.Details ?? {})
                .map(([k, v]) => `${k}: ${v}`)
                .join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
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
        <>
          <dl class="facts">
            <dt>ID</dt>
            <dd>{n.ID}</dd>
            <dt>Datacenter</dt>
            <dd>{n.Datacenter}</dd>
            <dt>Node pool</dt>
            <dd>{n.NodePool}</dd>
            <dt>Class</dt>
            <dd>{n.NodeClass || <span class="muted">none</span>}</dd>
            <dt>Address</dt>
            <dd>{n.HTTPAddr}</dd>
            <dt>Version</dt>
            <dd>{n.Attributes?.['nomad.version'] ?? ''}</dd>
            <dt>Status</dt>
            <dd>{n.StatusDescription || n.Status}</dd>
            <dt>Eligibility</dt>
            <dd data-testid="eligibility">{n.SchedulingEligibility}</dd>
            <dt>Drain</dt>
            <DrainFacts node={n} />
          </dl>
          <NodeActions node={n} />
          <h2>Resources</h2>
          <Resources node={n} />
          <h2>Drivers</h2>
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
                  <td>{sinceRfc3339(d.UpdateTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2>Allocations</h2>
      <NodeAllocations id={props.id} />
      {n && (
        <>
          <HostVolumes node={n} />
          <h2>Attributes</h2>
          <KeyValues entries={n.Attributes} testid="attributes" what="attributes" />
          <h2>Meta</h2>
          <KeyValues entries={n.Meta} testid="meta" what="meta" />
          <h2>Events</h2>
          <Events node={n} />
        </>
      )}
    </section>
  );
}
