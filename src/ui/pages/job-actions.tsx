/**
 * A job's actions (the `action` blocks of its tasks), each run on request in a terminal on the page
 * over the job action WebSocket (GET /v1/job/:id/action), as `svc job action` runs it: in a running
 * allocation of a group that declares it, the first one unless another is chosen. The list comes from
 * the job the page already follows; the allocations are read only when an action is run, so the job's
 * page keeps no query open for them. On an allocation's page (`allocation` given), the actions of its
 * group, run in it. Shown only where the token may exec (mayExec).
 */
import { useState } from 'preact/hooks';
import { useCan, type Can } from '../acl.js';
import { call } from '../api.js';
import { shortId } from '../format.js';
import type { AllocStub } from '../types.js';
import { LazyTerminal, mayExec } from './alloc-exec.js';
import { Problem } from './problem.js';
import { jobPath } from '../wire.js';

interface ActionSpec {
  Name: string;
  Command: string;
  Args?: string[] | null;
}

/** The parts of a job (GET /v1/job/:id) the actions are read from. */
export interface JobWithActions {
  ID: string;
  Namespace: string;
  TaskGroups?: Array<{ Name: string; Tasks?: Array<{ Name: string; Driver?: string; Actions?: ActionSpec[] | null }> | null }> | null;
}

interface Declared {
  name: string;
  group: string;
  task: string;
  driver?: string;
  command: string;
}

const declaredActions = (job: JobWithActions): Declared[] =>
  (job.TaskGroups ?? []).flatMap((g) =>
    (g.Tasks ?? []).flatMap((t) => (t.Actions ?? []).map((a) => ({ name: a.Name, group: g.Name, task: t.Name, driver: t.Driver, command: [a.Command, ...(a.Args ?? [])].join(' ') }))),
  );

/**
 * The declared actions the token may run (mayExec on each one's task driver), of one group when given:
 * what the job's page decides its Actions tab on, so a tab it shows is never empty.
 */
export const runnableActions = (job: JobWithActions, can: Can, group?: string): Declared[] =>
  declaredActions(job).filter((a) => (group === undefined || a.group === group) && mayExec(can, job.Namespace, a.driver));

/** What an action is run in: an allocation as the job's allocation list describes it. */
type AllocChoice = Pick<AllocStub, 'ID' | 'Name' | 'TaskGroup' | 'ClientStatus'>;

type Run = { action: Declared; allocs: AllocChoice[]; alloc: string; n: number };

export function JobActions({ job, allocation }: { job: JobWithActions; allocation?: AllocChoice }) {
  const can = useCan();
  const [run, setRun] = useState<Run | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [pending, setPending] = useState(false);
  const actions = can ? runnableActions(job, can, allocation?.TaskGroup) : [];
  if (actions.length === 0) return null;

  const running = async (): Promise<AllocChoice[]> => {
    if (allocation) return [allocation];
    const { data } = await call<AllocStub[] | null>(jobPath(job.ID, '/allocations'), { query: { namespace: job.Namespace } });
    return data ?? [];
  };

  const start = async (action: Declared) => {
    setError(undefined);
    setPending(true);
    try {
      const allocs = (await running()).filter((a) => a.TaskGroup === action.group && a.ClientStatus === 'running');
      if (allocs.length === 0) throw new Error(`No allocation of group ${action.group} is running: the action runs in one.`);
      setRun((r) => ({ action, allocs, alloc: allocs[0].ID, n: (r?.n ?? 0) + 1 }));
    } catch (err) {
      setError(err as Error);
    } finally {
      setPending(false);
    }
  };

  return (
    <section data-testid="job-actions">
      <h2>Actions</h2>
      <table class="list">
        <thead>
          <tr>
            <th>Action</th>
            <th>Task group</th>
            <th>Task</th>
            <th>Command</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {actions.map((a) => (
            <tr key={`${a.group}/${a.task}/${a.name}`}>
              <td>{a.name}</td>
              <td>{a.group}</td>
              <td>{a.task}</td>
              <td>
                <code>{a.command}</code>
              </td>
              <td>
                <button type="button" disabled={pending} data-testid={`run-action-${a.name}`} onClick={() => start(a)}>
                  Run
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <Problem error={error} />}
      {run && (
        <>
          <div class="toolbar">
            <label hidden={allocation !== undefined}>
              Allocation{' '}
              <select value={run.alloc} data-testid="action-alloc" onChange={(e) => setRun({ ...run, alloc: (e.target as HTMLSelectElement).value, n: run.n + 1 })}>
                {run.allocs.map((a) => (
                  <option key={a.ID} value={a.ID}>
                    {shortId(a.ID)} ({a.Name})
                  </option>
                ))}
              </select>
            </label>
            <button type="button" onClick={() => setRun({ ...run, n: run.n + 1 })}>
              Run again
            </button>
            <button type="button" onClick={() => setRun(undefined)}>
              Close
            </button>
          </div>
          <LazyTerminal
            key={run.n}
            title={`action ${run.action.name} in ${run.action.task}`}
            path={jobPath(job.ID, '/action')}
            query={{ namespace: job.Namespace, action: run.action.name, allocID: run.alloc, group: run.action.group, task: run.action.task, tty: 'true' }}
          />
        </>
      )}
    </section>
  );
}
