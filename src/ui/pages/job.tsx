/**
 * /ui/jobs/<id>@<namespace>: the job, live, and one of its parts at a time (a tab each: the task groups
 * with their allocation counts, the allocations, the versions, the evaluations), so the page keeps two
 * blocking queries open, the job's and the tab's.
 */
import { useLive } from '../live.js';
import { jobAddress, Link } from '../router.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { AllocStub, Evaluation, JobSummary, JobView } from '../types.js';
import { Problem } from './problem.js';

const TABS = [
  ['overview', 'Overview'],
  ['allocations', 'Allocations'],
  ['versions', 'Versions'],
  ['evaluations', 'Evaluations'],
] as const;

type Tab = (typeof TABS)[number][0];

const jobPath = (id: string, suffix = '') => `/v1/job/${encodeURIComponent(id)}${suffix}`;

function TaskGroups(props: { id: string; namespace: string; job?: JobView }) {
  const summary = useLive<JobSummary>(jobPath(props.id, '/summary'), { namespace: props.namespace });
  if (summary.error) return <Problem error={summary.error} />;
  const groups = props.job?.TaskGroups ?? [];
  const counts = summary.data?.Summary ?? {};
  const names = [...new Set([...groups.map((g) => g.Name), ...Object.keys(counts)])].sort();
  return (
    <table class="list" data-testid="task-groups">
      <thead>
        <tr>
          <th>Task group</th>
          <th>Count</th>
          <th>Queued</th>
          <th>Starting</th>
          <th>Running</th>
          <th>Failed</th>
          <th>Complete</th>
          <th>Lost</th>
        </tr>
      </thead>
      <tbody>
        {names.map((name) => {
          const c = counts[name];
          return (
            <tr key={name}>
              <td>{name}</td>
              <td>{groups.find((g) => g.Name === name)?.Count ?? ''}</td>
              <td>{c?.Queued ?? 0}</td>
              <td>{c?.Starting ?? 0}</td>
              <td>{c?.Running ?? 0}</td>
              <td>{c?.Failed ?? 0}</td>
              <td>{c?.Complete ?? 0}</td>
              <td>{c?.Lost ?? 0}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function AllocationRows(props: { allocs: AllocStub[] }) {
  const sorted = [...props.allocs].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="list" data-testid="allocations">
      <thead>
        <tr>
          <th>ID</th>
          <th>Task group</th>
          <th>Node</th>
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
            <td>{a.TaskGroup}</td>
            <td title={a.NodeID}>{a.NodeID ? <Link to={`/clients/${encodeURIComponent(a.NodeID)}`}>{a.NodeName || shortId(a.NodeID)}</Link> : ''}</td>
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

function Allocations(props: { id: string; namespace: string }) {
  const allocs = useLive<AllocStub[]>(jobPath(props.id, '/allocations'), { namespace: props.namespace });
  if (allocs.error) return <Problem error={allocs.error} />;
  if (!allocs.data) return <p class="muted">Loading…</p>;
  if (allocs.data.length === 0) return <p class="muted">No allocations.</p>;
  return <AllocationRows allocs={allocs.data} />;
}

function Versions(props: { id: string; namespace: string }) {
  const versions = useLive<{ Versions: JobView[] }>(jobPath(props.id, '/versions'), { namespace: props.namespace });
  if (versions.error) return <Problem error={versions.error} />;
  if (!versions.data) return <p class="muted">Loading…</p>;
  return (
    <table class="list" data-testid="versions">
      <thead>
        <tr>
          <th>Version</th>
          <th>Stable</th>
          <th>Submitted</th>
        </tr>
      </thead>
      <tbody>
        {versions.data.Versions.map((v) => (
          <tr key={v.Version}>
            <td>{v.Version}</td>
            <td>{v.Stable ? 'yes' : 'no'}</td>
            <td title={fromNanos(v.SubmitTime)}>{ago(v.SubmitTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Evaluations(props: { id: string; namespace: string }) {
  const evals = useLive<Evaluation[]>(jobPath(props.id, '/evaluations'), { namespace: props.namespace });
  if (evals.error) return <Problem error={evals.error} />;
  if (!evals.data) return <p class="muted">Loading…</p>;
  const sorted = [...evals.data].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="list" data-testid="evaluations">
      <thead>
        <tr>
          <th>ID</th>
          <th>Triggered by</th>
          <th>Status</th>
          <th>Placement failures</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((e) => (
          <tr key={e.ID}>
            <td title={e.ID}>{shortId(e.ID)}</td>
            <td>{e.TriggeredBy}</td>
            <td>
              <span class={`status status-${e.Status}`}>{e.Status}</span>
              {e.StatusDescription ? ` (${e.StatusDescription})` : ''}
            </td>
            <td>{Object.keys(e.FailedTGAllocs ?? {}).join(', ') || 'none'}</td>
            <td title={fromNanos(e.CreateTime)}>{ago(e.CreateTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function JobPage(props: { id: string; namespace: string; tab: string | null }) {
  const { id, namespace } = props;
  const tab: Tab = TABS.some(([t]) => t === props.tab) ? (props.tab as Tab) : 'overview';
  const job = useLive<JobView>(jobPath(id), { namespace });
  return (
    <section>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link> / {namespace}
      </p>
      <h1>
        {id}{' '}
        {job.data && <span class={`status status-${job.data.Status}`}>{job.data.Stop ? 'stopped' : job.data.Status}</span>}
      </h1>
      {job.error && <Problem error={job.error} />}
      {job.data && (
        <dl class="facts">
          <dt>Name</dt>
          <dd>{job.data.Name}</dd>
          <dt>Type</dt>
          <dd>{job.data.Type}</dd>
          <dt>Priority</dt>
          <dd>{job.data.Priority}</dd>
          <dt>Version</dt>
          <dd>{job.data.Version}</dd>
          <dt>Datacenters</dt>
          <dd>{(job.data.Datacenters ?? []).join(', ')}</dd>
        </dl>
      )}
      <nav class="tabs">
        {TABS.map(([t, label]) => (
          <Link key={t} to={jobAddress(id, namespace, t === 'overview' ? undefined : t)} class={t === tab ? 'active' : undefined} aria-current={t === tab ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'overview' && <TaskGroups id={id} namespace={namespace} job={job.data} />}
      {tab === 'allocations' && <Allocations id={id} namespace={namespace} />}
      {tab === 'versions' && <Versions id={id} namespace={namespace} />}
      {tab === 'evaluations' && <Evaluations id={id} namespace={namespace} />}
    </section>
  );
}
