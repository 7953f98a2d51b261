/**
 * Scheduling scenarios with real processes on the server's own node: scale up and down, in-place and
 * destructive updates, jobs that cannot be placed, restart-policy exhaustion, batch completion, and the
 * environment a task gets. Every process writes its PID where the test can see it, so "the same task"
 * and "a new task" are checked on the process itself, not only on the records.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { alive, until } from '../support/wait.js';

interface Stub {
  ID: string;
  Name: string;
  NodeID: string;
  JobVersion: number;
  DesiredStatus: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string; Failed: boolean; Restarts: number; Events: Array<{ Type: string; Time: number; DisplayMessage: string; Details: Record<string, string> }> }> | null;
}

let srv: TestServer;
let dir: string;
const c = () => srv.client();

const allocs = async (job: string) => (await c().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;
const live = (list: Stub[]) => list.filter((a) => a.DesiredStatus === 'run');
const pidOf = async (allocId: string) => Number((await readFile(path.join(dir, `${allocId}.pid`), 'utf8')).trim());

/** A service task that records its PID under the test dir and sleeps. */
function sleeper(id: string, count: number, extra: { args?: string; group?: Record<string, unknown>; task?: Record<string, unknown> } = {}) {
  return {
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        Count: count,
        // No rolling limit: destructive updates happen at once, so the test does not wait out a stagger.
        Update: { MaxParallel: 0 },
        ...extra.group,
        Tasks: [
          {
            Name: 't',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', `echo $$ > ${dir}/$NOMAD_ALLOC_ID.pid; ${extra.args ?? ''} exec sleep 300`] },
            KillTimeout: 2_000_000_000,
            Resources: { CPU: 20, MemoryMB: 16 },
            ...extra.task,
          },
        ],
      },
    ],
  };
}

async function register(job: Record<string, unknown>): Promise<string> {
  const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job } });
  return reg.body.EvalID;
}

async function runningPids(job: string, count: number): Promise<Map<string, number>> {
  // An allocation is running once one of its tasks is: wait until none is still starting, so that what the
  // test does next to a task finds it running (a prestart task may already be dead, as it should).
  const started = (a: Stub) => a.ClientStatus === 'running' && Object.values(a.TaskStates ?? {}).every((t) => t.State !== 'pending');
  const list = await until(() => allocs(job), (l) => live(l).length === count && live(l).every(started), `${count} running allocations of ${job}`);
  const pids = new Map<string, number>();
  for (const a of live(list)) pids.set(a.ID, await until(() => pidOf(a.ID), (p) => p > 0 && alive(p), `the PID of ${a.Name}`));
  return pids;
}

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-scheduling-');
});
afterAll(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('scheduling with real processes', () => {
  it('scales up without touching running tasks, and down by stopping the highest indexes', async () => {
    await register(sleeper('scale', 2));
    const two = await runningPids('scale', 2);
    await register(sleeper('scale', 4));
    const four = await runningPids('scale', 4);
    for (const [id, pid] of two) expect(four.get(id), 'existing allocations keep their process').toBe(pid);
    await register(sleeper('scale', 1));
    const after = await until(() => allocs('scale'), (l) => live(l).length === 1, 'one live allocation');
    expect(live(after)[0].Name).toBe('scale.g[0]');
    const stopped = [...four.entries()].filter(([id]) => id !== live(after)[0].ID);
    await until(async () => stopped.every(([, pid]) => !alive(pid)), (gone) => gone, 'the stopped tasks to exit');
    expect(alive(four.get(live(after)[0].ID)!)).toBe(true);
    // The three stopped tasks were killed on request: they count as complete, the one left as running.
    const summary = await until(
      () => c().scheduler<{ Summary: Record<string, { Running: number; Complete: number; Failed: number }> }>('GET', '/v1/job/scale/summary').then((r) => r.body.Summary.g),
      (g) => g.Running === 1 && g.Complete === 3,
      'the summary to settle',
    );
    expect(summary.Failed).toBe(0);
  });

  it('updates in place when only the kill timeout changes, and replaces the task when its command changes', async () => {
    await register(sleeper('upd', 1));
    const [[id, pid]] = [...(await runningPids('upd', 1)).entries()];
    await register(sleeper('upd', 1, { task: { KillTimeout: 3_000_000_000 } }));
    await until(
      () => c().scheduler<{ JobVersion: number }>('GET', `/v1/allocation/${id}`).then((r) => r.body),
      (a) => a.JobVersion === 1,
      'the allocation to move to version 1 in place',
    );
    expect(alive(pid)).toBe(true);
    expect(await pidOf(id)).toBe(pid);

    await register(sleeper('upd', 1, { task: { KillTimeout: 3_000_000_000 }, args: 'echo v3;' }));
    // The old allocation stays the live one until the evaluation has run: wait for its replacement.
    const [replacement] = live(await until(() => allocs('upd'), (l) => live(l).length === 1 && live(l)[0].ID !== id && live(l)[0].ClientStatus === 'running', 'the replacement to run'));
    const newId = replacement.ID;
    const newPid = await until(() => pidOf(newId), (p) => p > 0 && alive(p), 'the PID of the replacement');
    expect(replacement.JobVersion).toBe(2);
    expect(newPid).not.toBe(pid);
    await until(async () => !alive(pid), (gone) => gone, 'the old process to exit');
    const old = (await c().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${id}`)).body;
    expect(old).toMatchObject({ DesiredStatus: 'stop', DesiredDescription: 'alloc is being updated due to job update' });
  });

  it('cannot place a task whose driver no node has, or whose constraint no node meets, and says why', async () => {
    const docker = { ID: 'needs-docker', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'docker', Config: { image: 'redis:7' } }] }] };
    const evalId = await register(docker);
    const evaluation = await until(() => c().scheduler<Record<string, unknown>>('GET', `/v1/evaluation/${evalId}`).then((r) => r.body), (e) => e.Status !== 'pending', 'the evaluation');
    expect(evaluation.Status).toBe('complete');
    expect((evaluation.FailedTGAllocs as Record<string, { ConstraintFiltered: Record<string, number> }>).g.ConstraintFiltered).toEqual({ 'missing drivers': 1 });
    expect((await c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${evaluation.BlockedEval as string}`)).body.Status).toBe('blocked');

    const windows = sleeper('needs-windows', 1, { group: { Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'windows', Operand: '=' }] } });
    const winEval = await register(windows);
    const failed = await until(() => c().scheduler<Record<string, unknown>>('GET', `/v1/evaluation/${winEval}`).then((r) => r.body), (e) => e.Status !== 'pending', 'the evaluation');
    expect((failed.FailedTGAllocs as Record<string, { ConstraintFiltered: Record<string, number> }>).g.ConstraintFiltered).toEqual({ '${attr.kernel.name} = windows': 1 });
    expect(await allocs('needs-windows')).toEqual([]);
  });

  it('stops restarting a failing task when its restart policy is exhausted, and the job ends', async () => {
    const job = {
      ID: 'crasher',
      Type: 'batch',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          RestartPolicy: { Attempts: 1, Interval: 60_000_000_000, Delay: 100_000_000, Mode: 'fail' },
          ReschedulePolicy: { Attempts: 0, Unlimited: false },
          Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'echo boom >&2; exit 3'] }, Resources: { CPU: 20, MemoryMB: 16 } }],
        },
      ],
    };
    const registered = Date.now();
    await register(job);
    const [failed] = await until(() => allocs('crasher'), (l) => l[0]?.ClientStatus === 'failed', 'the allocation to fail');
    const state = failed.TaskStates!.t;
    // Event times are Unix nanoseconds.
    for (const e of state.Events) {
      expect(e.Time / 1e6).toBeGreaterThanOrEqual(registered - 1000);
      expect(e.Time / 1e6).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(state).toMatchObject({ State: 'dead', Failed: true, Restarts: 1 });
    expect(state.Events.map((e) => e.Type)).toEqual(['Received', 'Task Setup', 'Started', 'Terminated', 'Restarting', 'Started', 'Terminated', 'Not Restarting']);
    expect(state.Events[3].Details.exit_code).toBe('3');
    expect(state.Events[7].DisplayMessage).toBe('Exceeded allowed attempts 1 in interval 1m0s and mode is "fail"');
    const job2 = await until(() => c().scheduler<{ Status: string }>('GET', '/v1/job/crasher').then((r) => r.body), (j) => j.Status === 'dead', 'the job to be dead');
    expect(job2.Status).toBe('dead');
    // No reschedule attempts: nothing replaced it.
    expect((await allocs('crasher')).length).toBe(1);
  });

  it('completes a batch job once; evaluating it again runs nothing new', async () => {
    const job = {
      ID: 'once',
      Type: 'batch',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Count: 2, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/echo', args: ['hello from ${NOMAD_ALLOC_NAME} on ${attr.kernel.name}'] }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
    };
    await register(job);
    const done = await until(() => allocs('once'), (l) => l.length === 2 && l.every((a) => a.ClientStatus === 'complete'), 'both allocations to complete');
    await until(() => c().scheduler<{ Status: string }>('GET', '/v1/job/once').then((r) => r.body), (j) => j.Status === 'dead', 'the job to be dead');
    const summary = (await c().scheduler<{ Summary: Record<string, { Complete: number }> }>('GET', '/v1/job/once/summary')).body;
    expect(summary.Summary.g.Complete).toBe(2);
    const again = await c().scheduler<{ EvalID: string }>('POST', '/v1/job/once/evaluate', { body: { JobID: 'once' } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${again.body.EvalID}`).then((r) => r.body), (e) => e.Status === 'complete', 'the evaluation');
    expect((await allocs('once')).map((a) => a.ID).sort()).toEqual(done.map((a) => a.ID).sort());

    // The output went to the task's log, with the allocation name and the node attribute interpolated.
    const allocDir = await findAllocDir(done[0].ID);
    const logs = await readdir(path.join(allocDir, 'alloc', 'logs'));
    expect(logs).toContain('t.stdout.0');
    const out = await readFile(path.join(allocDir, 'alloc', 'logs', 't.stdout.0'), 'utf8');
    expect(out).toMatch(/^hello from once\.g\[[01]\] on linux\n$/);
  });

  it('gives a task Nomad\'s environment, with its dynamic port', async () => {
    const job = {
      ID: 'envy',
      Type: 'batch',
      Datacenters: ['dc1'],
      Meta: { team: 'infra' },
      TaskGroups: [
        {
          Name: 'g',
          Networks: [{ DynamicPorts: [{ Label: 'http' }], ReservedPorts: [{ Label: 'admin', Value: 31917 }] }],
          Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/usr/bin/env' }, Resources: { CPU: 20, MemoryMB: 16 } }],
        },
      ],
    };
    await register(job);
    const [done] = await until(() => allocs('envy'), (l) => l[0]?.ClientStatus === 'complete', 'the task to finish');
    const full = (await c().scheduler<{ AllocatedResources: { Shared: { Ports: Array<{ Label: string; Value: number }> } } }>('GET', `/v1/allocation/${done.ID}`)).body;
    const port = full.AllocatedResources.Shared.Ports.find((p) => p.Label === 'http')!.Value;
    expect(port).toBeGreaterThanOrEqual(20000);
    const env = await readFile(path.join(await findAllocDir(done.ID), 'alloc', 'logs', 't.stdout.0'), 'utf8');
    for (const line of [`NOMAD_ALLOC_ID=${done.ID}`, 'NOMAD_JOB_ID=envy', 'NOMAD_GROUP_NAME=g', 'NOMAD_TASK_NAME=t', `NOMAD_PORT_http=${port}`, 'NOMAD_PORT_admin=31917', 'NOMAD_META_team=infra', 'NOMAD_DC=dc1', `SVC_ALLOC_ID=${done.ID}`]) {
      expect(env).toContain(`${line}\n`);
    }
    // The placed network tells a static port from a dynamic one, as `alloc status` shows it.
    const status = await srv.cli(['alloc', 'status', done.ID]);
    expect(status.stdout).toMatch(/\*admin +no +\S+:31917\n/);
    expect(status.stdout).toMatch(new RegExp(`\\*http +yes +\\S+:${port}\\n`));
  });

  it('signals, restarts and stops a real task through the allocation endpoints', async () => {
    const trap = `trap 'echo got-usr1 >> ${dir}/$NOMAD_ALLOC_ID.signals' USR1; echo $$ > ${dir}/$NOMAD_ALLOC_ID.pid; while true; do sleep 0.1; done`;
    await register({ ...sleeper('ctl', 1), TaskGroups: [{ ...sleeper('ctl', 1).TaskGroups[0], Tasks: [{ ...sleeper('ctl', 1).TaskGroups[0].Tasks[0], Config: { command: '/bin/sh', args: ['-c', trap] } }] }] });
    const [[id, pid]] = [...(await runningPids('ctl', 1)).entries()];

    await c().scheduler('POST', `/v1/client/allocation/${id}/signal`, { body: { Signal: 'SIGUSR1', Task: 't' } });
    await until(() => readFile(path.join(dir, `${id}.signals`), 'utf8'), (t) => t.includes('got-usr1'), 'the trap to run');
    expect(alive(pid)).toBe(true);

    await c().scheduler('POST', `/v1/client/allocation/${id}/restart`, { body: { TaskName: 't' } });
    const restartedPid = await until(() => pidOf(id), (p) => p !== pid && alive(p), 'a new process for the restarted task');
    await until(async () => !alive(pid), (gone) => gone, 'the old process to exit');
    const afterRestart = await until(() => c().scheduler<Stub>('GET', `/v1/allocation/${id}`).then((r) => r.body), (a) => a.TaskStates?.t.State === 'running' && a.TaskStates.t.Events.some((e) => e.Type === 'Restart Signaled'), 'the restart events');
    expect(afterRestart.ClientStatus).toBe('running');

    const stop = await c().scheduler<{ EvalID: string }>('POST', `/v1/allocation/${id}/stop`);
    expect(stop.body.EvalID).toBeTruthy();
    await until(async () => !alive(restartedPid), (gone) => gone, 'the stopped task to exit');
    const replacement = await runningPids('ctl', 1);
    expect([...replacement.keys()][0]).not.toBe(id);
    // The node reports in batches: the exit reaches the server shortly after the process is gone.
    const stopped = await until(() => c().scheduler<Stub>('GET', `/v1/allocation/${id}`).then((r) => r.body), (x) => x.ClientStatus !== 'running', 'the stop to be reported');
    expect(stopped).toMatchObject({ DesiredStatus: 'stop', ClientStatus: 'complete' });
  });
});

describe('signals and restarts of several tasks', () => {
  it('a signal without Task reaches every task; AllTasks restarts every task', async () => {
    const task = (name: string) => ({
      Name: name,
      Driver: 'raw_exec',
      Config: { command: '/bin/sh', args: ['-c', `trap 'echo ${name} >> ${dir}/$NOMAD_ALLOC_ID.signals' HUP; echo $$ >> ${dir}/$NOMAD_ALLOC_ID.${name}.pids; while true; do sleep 0.1; done`] },
      KillTimeout: 2_000_000_000,
      Resources: { CPU: 20, MemoryMB: 16 },
    });
    await register({ ID: 'pair', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [task('a'), task('b')] }] });
    const [alloc] = await until(() => allocs('pair'), (l) => l[0]?.ClientStatus === 'running' && Object.values(l[0].TaskStates ?? {}).every((t) => t.State === 'running'), 'both tasks running');
    const pids = async (name: string) => (await readFile(path.join(dir, `${alloc.ID}.${name}.pids`), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
    await until(async () => (await pids('a')).length + (await pids('b')).length, (n) => n === 2, 'both PIDs');

    await c().scheduler('POST', `/v1/client/allocation/${alloc.ID}/signal`, { body: { Signal: 'SIGHUP' } });
    const got = await until(() => readFile(path.join(dir, `${alloc.ID}.signals`), 'utf8'), (t) => t.includes('a') && t.includes('b'), 'both traps');
    expect(got.trim().split('\n').sort()).toEqual(['a', 'b']);

    await c().scheduler('POST', `/v1/client/allocation/${alloc.ID}/restart`, { body: { AllTasks: true } });
    await until(async () => [(await pids('a')).length, (await pids('b')).length], ([na, nb]) => na === 2 && nb === 2, 'both tasks started again');
    const states = await until(
      () => c().scheduler<Stub>('GET', `/v1/allocation/${alloc.ID}`).then((r) => r.body.TaskStates!),
      (t) => ['a', 'b'].every((n) => t[n].State === 'running' && t[n].Events.some((e) => e.Type === 'Restart Signaled')),
      'both restarted in place',
    );
    expect(Object.keys(states).sort()).toEqual(['a', 'b']);
    expect((await allocs('pair')).map((a) => a.ID)).toEqual([alloc.ID]);
  });
});

describe('restarting every task', () => {
  it('AllTasks also runs again a prestart task that already finished; a plain restart leaves it be', async () => {
    const runs = (alloc: string) => readFile(path.join(dir, `${alloc}.init-runs`), 'utf8').catch(() => '').then((t) => t.split('\n').filter(Boolean).length);
    const init = {
      Name: 'init',
      Driver: 'raw_exec',
      Lifecycle: { Hook: 'prestart', Sidecar: false },
      Config: { command: '/bin/sh', args: ['-c', `echo ran >> ${dir}/$NOMAD_ALLOC_ID.init-runs`] },
      Resources: { CPU: 20, MemoryMB: 16 },
    };
    const job = sleeper('staged', 1);
    await register({ ...job, TaskGroups: [{ ...job.TaskGroups[0], Tasks: [init, ...job.TaskGroups[0].Tasks] }] });
    const [[id]] = [...(await runningPids('staged', 1)).entries()];
    expect(await runs(id)).toBe(1);
    const restartedMain = async (after: number) =>
      until(
        () => c().scheduler<Stub>('GET', `/v1/allocation/${id}`).then((r) => r.body.TaskStates!),
        (t) => t.t.State === 'running' && t.t.Events.filter((e) => e.Type === 'Restart Signaled').length === after,
        `the main task restarted ${after} time(s)`,
      );

    await c().scheduler('POST', `/v1/client/allocation/${id}/restart`, { body: {} });
    const plain = await restartedMain(1);
    expect(plain.init.State).toBe('dead');
    expect(await runs(id)).toBe(1);

    await c().scheduler('POST', `/v1/client/allocation/${id}/restart`, { body: { AllTasks: true } });
    await until(() => runs(id), (n) => n === 2, 'the prestart task to run again');
    await restartedMain(2);
  });
});

describe('shutdown delays', () => {
  it('a task waits out its shutdown_delay when its job stops, and skips it with no_shutdown_delay', async () => {
    const delayed = (id: string) => sleeper(id, 1, { task: { ShutdownDelay: 1_000_000_000 } });
    const events = async (id: string) => {
      const [a] = await until(() => allocs(id), (l) => l[0]?.ClientStatus === 'complete', `${id} to stop`);
      return a.TaskStates!.t.Events.map((e) => e.Type);
    };
    await register(delayed('waits'));
    await runningPids('waits', 1);
    await c().scheduler('DELETE', '/v1/job/waits');
    expect(await events('waits')).toContain('Waiting for shutdown delay');

    await register(delayed('hurries'));
    await runningPids('hurries', 1);
    await c().scheduler('DELETE', '/v1/job/hurries', { query: { no_shutdown_delay: true } });
    const types = await events('hurries');
    expect(types).toContain('Skipping shutdown delay');
    expect(types).not.toContain('Waiting for shutdown delay');
    const [a] = await allocs('hurries');
    const full = (await c().scheduler<{ DesiredTransition: { NoShutdownDelay: boolean | null } }>('GET', `/v1/allocation/${a.ID}`)).body;
    expect(full.DesiredTransition.NoShutdownDelay).toBe(true);
  });

  it('alloc stop migrates the allocation; no_shutdown_delay skips the delay, and the replacement runs', async () => {
    await register(sleeper('moved', 1, { task: { ShutdownDelay: 1_000_000_000 } }));
    const [[id]] = [...(await runningPids('moved', 1)).entries()];
    await c().scheduler('POST', `/v1/allocation/${id}/stop`, { query: { no_shutdown_delay: true } });
    const old = await until(() => allocs('moved').then((l) => l.find((a) => a.ID === id)!), (a) => a.ClientStatus === 'complete', 'the stopped allocation to finish');
    const types = old.TaskStates!.t.Events.map((e) => e.Type);
    expect(types).toContain('Skipping shutdown delay');
    expect(types).not.toContain('Waiting for shutdown delay');
    const [[next]] = [...(await runningPids('moved', 1)).entries()];
    const replacement = (await c().scheduler<{ PreviousAllocation: string }>('GET', `/v1/allocation/${next}`)).body;
    expect(replacement.PreviousAllocation).toBe(id);
  });
});

/** The allocation's directory on the server's node. */
async function findAllocDir(allocId: string): Promise<string> {
  const root = path.join(srv.dataDir, 'client', 'allocs', allocId);
  await readdir(root);
  return root;
}
