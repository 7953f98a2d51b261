/**
 * /ui/allocations/<id>: the allocation, live (one blocking query), its tasks' states, their recent
 * events, and a task's log streaming below.
 */
import { useState } from 'preact/hooks';
import { useLive } from '../live.js';
import { jobAddress, Link } from '../router.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { Allocation, TaskEvent, TaskState } from '../types.js';
import { Problem } from './problem.js';
import { LogView } from './logs.js';

const RECENT_EVENTS = 20;

const eventText = (e: TaskEvent) => e.DisplayMessage || [e.Message, e.DriverError, e.KillError, e.RestartReason].filter(Boolean).join(' ') || '';

function TaskStates(props: { states: Record<string, TaskState> }) {
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
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function RecentEvents(props: { states: Record<string, TaskState> }) {
  const events = Object.entries(props.states)
    .flatMap(([task, s]) => (s.Events ?? []).map((e) => ({ task, e })))
    .sort((a, b) => b.e.Time - a.e.Time)
    .slice(0, RECENT_EVENTS);
  if (events.length === 0) return <p class="muted">No events yet.</p>;
  return (
    <table class="list" data-testid="events">
      <thead>
        <tr>
          <th>Time</th>
          <th>Task</th>
          <th>Type</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {events.map(({ task, e }, i) => (
          <tr key={`${task}-${e.Time}-${i}`}>
            <td title={fromNanos(e.Time)}>{ago(e.Time)}</td>
            <td>{task}</td>
            <td>{e.Type}</td>
            <td>{eventText(e)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AllocationPage(props: { id: string }) {
  const alloc = useLive<Allocation>(`/v1/allocation/${encodeURIComponent(props.id)}`);
  const [task, setTask] = useState<string | undefined>();
  const [type, setType] = useState<'stdout' | 'stderr'>('stdout');
  const [origin, setOrigin] = useState<'start' | 'end'>('start');
  const a = alloc.data;
  const states = (a?.TaskStates ?? {}) as Record<string, TaskState>;
  const tasks = Object.keys(states).sort();
  const shownTask = task && tasks.includes(task) ? task : tasks[0];
  return (
    <section>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link>
        {a?.JobID && (
          <>
            {' / '}
            <Link to={jobAddress(a.JobID, a.Namespace ?? 'default', 'allocations')}>{a.JobID}</Link>
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
      <h2>Tasks</h2>
      {a && <TaskStates states={states} />}
      <h2>Recent events</h2>
      {a && <RecentEvents states={states} />}
      <h2>Logs</h2>
      {shownTask ? (
        <>
          <div class="toolbar">
            <label>
              Task{' '}
              <select value={shownTask} onChange={(e) => setTask((e.target as HTMLSelectElement).value)}>
                {tasks.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <span class="segmented">
              {(['stdout', 'stderr'] as const).map((t) => (
                <button key={t} type="button" class={t === type ? 'active' : undefined} aria-pressed={t === type} onClick={() => setType(t)}>
                  {t}
                </button>
              ))}
            </span>
            <span class="segmented">
              <button type="button" class={origin === 'start' ? 'active' : undefined} aria-pressed={origin === 'start'} onClick={() => setOrigin('start')}>
                From the start
              </button>
              <button type="button" class={origin === 'end' ? 'active' : undefined} aria-pressed={origin === 'end'} onClick={() => setOrigin('end')}>
                Tail
              </button>
            </span>
          </div>
          <LogView allocId={props.id} task={shownTask} type={type} origin={origin} />
        </>
      ) : (
        <p class="muted">No task has started yet.</p>
      )}
    </section>
  );
}
