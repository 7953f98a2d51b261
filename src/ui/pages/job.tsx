/**
 * /ui/jobs/<id>@<namespace>: the job, live, what the token may do to it, and one of its parts at a time
 * (a tab each: the task groups with their counts, the allocations, the versions and their diffs, the
 * deployments, the evaluations, and the actions its tasks declare), so the page keeps two blocking
 * queries open, the job's and the tab's.
 */
import { useCan, type Can } from '../acl.js';
import { useLive } from '../live.js';
import { jobAddress, Link } from '../router.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { AllocStub, JobSummary } from '../types.js';
import { Problem } from './problem.js';
import { JobControls, ScaleControl, useJobCan } from './job-controls.js';
import { JobVersions } from './job-versions.js';
import { JobDeployments } from './job-deployments.js';
import { JobEvaluations } from './job-evaluations.js';
import { JobActions, runnableActions, type JobWithActions } from './job-actions.js';
import type { FullJob } from './job-types.js';
import { jobPath } from '../wire.js';

const TABS = [
  ['overview', 'Overview'],
  ['allocations', 'Allocations'],
  ['versions', 'Versions'],
  ['deployments', 'Deployments'],
  ['evaluations', 'Evaluations'],
  ['actions', 'Actions'],
] as const;

type Tab = (typeof TABS)[number][0];

/** Whether a task of the job declares an action, whether or not this token may run it. */
const declaresActions = (job: JobWithActions | undefined) => (job?.TaskGroups ?? []).some((g) => (g.Tasks ?? []).some((t) => (t.Actions ?? []).length > 0));


type Counts = JobSummary['Summary'][string];

/**
 * A service group's health from its counts: healthy with as many allocations running as it asks for,
 * degraded when fewer run and some failed or were lost, starting otherwise. Batch work has none, and
 * a system job's count is not what it asks for (it asks for one a node).
 */
function health(job: FullJob, desired: number, c: Counts | undefined): string {
  if (job.Stop || job.Type !== 'service') return '–';
  const running = c?.Running ?? 0;
  if (running >= desired) return 'healthy';
  return (c?.Failed ?? 0) + (c?.Lost ?? 0) > 0 ? 'degraded' : 'starting';
}

function TaskGroups(props: { id: string; namespace: string; job?: FullJob; canScale: boolean }) {
  const summary = useLive<JobSummary>(jobPath(props.id, '/summary'), { namespace: props.namespace });
  if (summary.error) return <Problem error={summary.error} />;
  const { job } = props;
  const groups = job?.TaskGroups ?? [];
  const counts = summary.data?.Summary ?? {};
  const names = [...new Set([...groups.map((g) => g.Name), ...Object.keys(counts)])].sort();
  // Scaling applies to a job that places allocations itself: not a parameterized or periodic parent.
  const scalable = props.canScale && job && !job.Stop && !job.ParameterizedJob && !job.Periodic?.Enabled && job.Type !== 'system' && job.Type !== 'sysbatch';
  const parent = job && !job.ParentID && (!!job.ParameterizedJob || !!job.Periodic?.Enabled);
  const children = summary.data?.Children;
  return (
    <>
      {parent && children && (
        <p data-testid="job-children">
          Launched jobs: {children.Pending} pending, {children.Running} running, {children.Dead} dead.{' '}
          <Link to={`/jobs?namespace=${encodeURIComponent(props.namespace)}&prefix=${encodeURIComponent(`${props.id}/`)}`}>List them</Link>
        </p>
      )}
      <table class="list" data-testid="task-groups">
        <thead>
          <tr>
            <th>Task group</th>
            <th>Desired</th>
            <th>Placed</th>
            <th>Running</th>
            <th>Failed</th>
            <th>Queued</th>
            <th>Complete</th>
            <th>Lost</th>
            <th>Health</th>
            {scalable && <th />}
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const c = counts[name];
            const group = groups.find((g) => g.Name === name);
            const h = job && group ? health(job, group.Count, c) : '';
            return (
              <tr key={name} data-group={name}>
                <td>{name}</td>
                <td data-testid={`desired-${name}`}>{group?.Count ?? ''}</td>
                <td>{(c?.Starting ?? 0) + (c?.Running ?? 0)}</td>
                <td data-testid={`running-${name}`}>{c?.Running ?? 0}</td>
                <td>{c?.Failed ?? 0}</td>
                <td>{c?.Queued ?? 0}</td>
                <td>{c?.Complete ?? 0}</td>
                <td>{c?.Lost ?? 0}</td>
                <td>
                  <span class={`health health-${h}`}>{h}</span>
                </td>
                {scalable && <td>{group && <ScaleControl key={`${group.Count}`} job={job} group={name} count={group.Count} />}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

function AllocationRows(props: { allocs: AllocStub[] }) {
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

function ActionsTab(props: { job: FullJob; can: Can | undefined }) {
  if (!declaresActions(props.job)) return <p class="muted">No task of this job declares an action.</p>;
  if (!props.can) return <p class="muted">Loading…</p>;
  if (runnableActions(props.job, props.can).length === 0)
    return <p class="muted">This token may not run the job's actions (alloc-exec, and alloc-node-exec for a task whose driver runs it on the node).</p>;
  return <JobActions job={props.job} />;
}

export function JobPage(props: { id: string; namespace: string; tab: string | null }) {
  const { id, namespace } = props;
  const tab: Tab = TABS.some(([t]) => t === props.tab) ? (props.tab as Tab) : 'overview';
  const job = useLive<FullJob>(jobPath(id), { namespace });
  const can = useJobCan(namespace);
  const rules = useCan();
  const j = job.data;
  return (
    <section data-permissions={rules && can.known ? 'known' : 'pending'}>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link> / {namespace}
        {j?.ParentID && (
          <>
            {' / '}
            <Link to={jobAddress(j.ParentID, namespace)}>{j.ParentID}</Link>
          </>
        )}
      </p>
      <h1>
        <span data-testid="job-id">{id}</span>{' '}
        {j && (
          <span class={`status status-${j.Status}`} data-testid="job-status">
            {j.Stop ? 'stopped' : j.Status}
          </span>
        )}
      </h1>
      {job.error && <Problem error={job.error} />}
      {j && <JobControls job={j} can={can} />}
      {j && (
        <dl class="facts">
          <dt>Name</dt>
          <dd>{j.Name}</dd>
          <dt>Type</dt>
          <dd>
            {j.Type}
            {j.ParameterizedJob && !j.Dispatched ? ' (parameterized)' : ''}
            {j.Periodic?.Enabled ? ` (periodic: ${[j.Periodic.Spec, ...(j.Periodic.Specs ?? [])].filter(Boolean).join(', ')})` : ''}
          </dd>
          <dt>Priority</dt>
          <dd>{j.Priority}</dd>
          <dt>Version</dt>
          <dd data-testid="job-version">{j.Version}</dd>
          <dt>Datacenters</dt>
          <dd>{(j.Datacenters ?? []).join(', ')}</dd>
          {j.Dispatched && Object.keys(j.Meta ?? {}).length > 0 && (
            <>
              <dt>Meta</dt>
              <dd data-testid="job-meta">
                {Object.entries(j.Meta ?? {})
                  .sort(([a], [b]) => (a < b ? -1 : 1))
                  .map(([k, v]) => `${k}=${v}`)
                  .join(', ')}
              </dd>
            </>
          )}
        </dl>
      )}
      <nav class="tabs">
        {TABS.filter(([t]) => t !== 'actions' || (j && rules && runnableActions(j, rules).length > 0) || tab === 'actions').map(([t, label]) => (
          <Link key={t} to={jobAddress(id, namespace, t === 'overview' ? undefined : t)} class={t === tab ? 'active' : undefined} aria-current={t === tab ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'overview' && <TaskGroups id={id} namespace={namespace} job={j} canScale={can.scale} />}
      {tab === 'allocations' && <Allocations id={id} namespace={namespace} />}
      {tab === 'versions' && <JobVersions id={id} namespace={namespace} canSubmit={can.submit} />}
      {tab === 'deployments' && <JobDeployments id={id} namespace={namespace} canSubmit={can.submit} />}
      {tab === 'evaluations' && <JobEvaluations id={id} namespace={namespace} />}
      {tab === 'actions' && j && <ActionsTab job={j} can={rules} />}
    </section>
  );
}
