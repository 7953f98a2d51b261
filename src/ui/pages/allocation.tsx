/**
 * /ui/allocations/<id>: the allocation, live (one blocking query): its tasks' states and each task's
 * events, what a token with alloc-lifecycle may do to it (restart, stop, signal), and a task's log
 * streaming below; its directory (?tab=files) and a terminal in a task (?tab=exec) on tabs of their
 * own. What the token may not do is not offered: the server refuses it all the same.
 */
import { useCan } from '../acl.js';
import { useLive } from '../live.js';
import { jobAddress, Link, useLocation } from '../router.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { Allocation, TaskEvent, TaskState } from '../types.js';
import { Problem } from './problem.js';
import { TaskLogs } from './logs.js';
import { ConfirmButton } from '../confirm.js';
import { AllocControls, restartAlloc } from './alloc-lifecycle.js';
import { AllocFiles } from './alloc-files.js';
import { AllocExec, mayExec } from './alloc-exec.js';
import { JobActions, type JobWithActions } from './job-actions.js';

const eventText = (e: TaskEvent) => e.DisplayMessage || [e.Message, e.DriverError, e.KillError, e.RestartReason].filter(Boolean).join(' ') || '';

function TaskStates(props: { allocId: string; states: Record<string, TaskState>; canRestart: boolean }) {
  const names = Object.keys(props.states).sort();
  return (
    <table class="list" data-testid="tasks">
      <thead>
        <tr>
          <th>Task</th>
          <th>State</th>
          <th>Failed</th>
          <th>Restarts</th>
          <th>Last event</th>
          {props.canRestart && <th />}
        </tr>
      </thead>
      <tbody>
        {names.map((name) => {
          const s = props.states[name];
          const last = (s.Events ?? []).at(-1);
          return (
            <tr key={name}>
              <td>{name}</td>
              <td>
                <span class={`status status-${s.State}`}>{s.State}</span>
              </td>
              <td>{s.Failed ? 'yes' : 'no'}</td>
              <td>{s.Restarts ?? 0}</td>
              <td>{last ? `${last.Type}${eventText(last) ? `: ${eventText(last)}` : ''}` : ''}</td>
              {props.canRestart && (
                <td>
                  {s.State === 'running' && (
                    <ConfirmButton
                      testid={`restart-task-${name}`}
                      label="Restart"
                      question={`Restart task ${name}?`}
                      confirmLabel="Yes, restart"
                      done="Restart requested."
                      onConfirm={() => restartAlloc(props.allocId, { TaskName: name })}
                    />
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Each task's events, newest first, as the task's state lists them. */
function TaskEvents(props: { states: Record<string, TaskState> }) {
  const names = Object.keys(props.states).sort();
  return (
    <>
      {names.map((name) => {
        const events = [...(props.states[name].Events ?? [])].reverse();
        return (
          <div key={name} data-testid={`events-${name}`}>
            <h3>{name}</h3>
            {events.length === 0 ? (
              <p class="muted">No events yet.</p>
            ) : (
              <table class="list">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Type</th>
                    <th>Description</th>
                  </tr>
                </thead>
                <tbody>
                  {events.map((e: TaskEvent, i) => (
                    <tr key={`${e.Time}-${i}`}>
                      <td title={ago(e.Time)}>{fromNanos(e.Time)}</td>
                      <td>{e.Type}</td>
                      <td>{eventText(e)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        );
      })}
    </>
  );
}

const TABS = [
  ['overview', 'Overview'],
  ['files', 'Files'],
  ['exec', 'Exec'],
] as const;

export function AllocationPage(props: { id: string }) {
  const loc = useLocation();
  const alloc = useLive<Allocation>(`/v1/allocation/${encodeURIComponent(props.id)}`);
  const can = useCan();
  const a = alloc.data;
  const namespace = a?.Namespace ?? 'default';
  const allowed = (capability: string) => (can && a ? can.job(capability, namespace) : false);
  const states = (a?.TaskStates ?? {}) as Record<string, TaskState>;
  const tasks = Object.keys(states).sort();
  const running = a?.ClientStatus === 'running' || a?.ClientStatus === 'pending';
  const job = a?.Job as JobWithActions | undefined;
  const driverOf = (task: string) => job?.TaskGroups?.find((g) => g.Name === a?.TaskGroup)?.Tasks?.find((t) => t.Name === task)?.Driver;
  const execTasks = can && a ? tasks.filter((t) => mayExec(can, namespace, driverOf(t))) : [];
  const shown = { overview: true, files: allowed('read-fs'), exec: execTasks.length > 0 };
  const tabs = TABS.filter(([t]) => shown[t]);
  const asked = loc.query.get('tab') ?? 'overview';
  const tab = tabs.some(([t]) => t === asked) ? asked : 'overview';
  const tabAddress = (t: string) => `/allocations/${encodeURIComponent(props.id)}${t === 'overview' ? '' : `?tab=${t}`}`;
  return (
    <section data-permissions={can && a ? 'known' : 'pending'}>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link>
        {a?.JobID && (
          <>
            {' / '}
            <Link to={jobAddress(a.JobID, namespace, 'allocations')}>{a.JobID}</Link>
          </>
        )}
      </p>
      <h1>
        Allocation {shortId(props.id)} {a && <span class={`status status-${a.ClientStatus}`}>{a.ClientStatus}</span>}
      </h1>
      {alloc.error && <Problem error={alloc.error} />}
      {a && (
        <dl class="facts">
          <dt>ID</dt>
          <dd>{a.ID}</dd>
          <dt>Task group</dt>
          <dd>{a.TaskGroup}</dd>
          <dt>Node</dt>
          <dd>{a.NodeID ? <Link to={`/clients/${encodeURIComponent(a.NodeID)}`}>{a.NodeName || a.NodeID}</Link> : ''}</dd>
          <dt>Desired</dt>
          <dd>{a.DesiredStatus}</dd>
          <dt>Job version</dt>
          <dd>{a.JobVersion ?? 0}</dd>
        </dl>
      )}
      {a && can && (allowed('alloc-lifecycle') ? <AllocControls id={props.id} tasks={tasks} running={running} /> : <p class="muted" data-testid="no-lifecycle">This token may not restart, stop or signal this allocation.</p>)}
      {a && tabs.length > 1 && (
        <nav class="tabs">
          {tabs.map(([t, label]) => (
            <Link key={t} to={tabAddress(t)} class={t === tab ? 'active' : undefined} aria-current={t === tab ? 'page' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      )}
      {tab === 'overview' && (
        <>
          <h2>Tasks</h2>
          {a && <TaskStates allocId={props.id} states={states} canRestart={allowed('alloc-lifecycle') && running} />}
          <h2>Task events</h2>
          {a && <TaskEvents states={states} />}
          {job && a?.ID && a.Name && a.TaskGroup && a.ClientStatus === 'running' && (
            <JobActions job={job} allocation={{ ID: a.ID, Name: a.Name, TaskGroup: a.TaskGroup, ClientStatus: a.ClientStatus }} />
          )}
          {a && can && (
            <>
              <h2>Logs</h2>
              {allowed('read-logs') || allowed('read-fs') ? <TaskLogs allocId={props.id} tasks={tasks} /> : <p class="muted" data-testid="no-logs">This token may not read this allocation's logs.</p>}
            </>
          )}
        </>
      )}
      {tab === 'files' && <AllocFiles allocId={props.id} path={loc.query.get('path') ?? ''} />}
      {tab === 'exec' && <AllocExec allocId={props.id} tasks={execTasks} running={a?.ClientStatus === 'running'} />}
    </section>
  );
}
