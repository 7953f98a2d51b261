/**
 * Task pause schedules end to end: a real server whose node runs raw_exec tasks, one with a
 * `schedule` window that excludes now and one without. The scheduled task starts paused (no process,
 * the allocation running, its deployment healthy); the pause API overrides it (run, pause) and gives it
 * back to its schedule; every refusal of the API; `svc alloc pause` in both modes and its errors; and an
 * override that survives a restart of the node.
 */
import { rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { liveProcesses } from '../support/procs.js';
import { statusOf, until } from '../support/wait.js';

const MS = 1_000_000;
const ZERO_TIME = '0001-01-01T00:00:00Z';

interface TaskState {
  State: string;
  Failed: boolean;
  Restarts: number;
  StartedAt: string;
  Paused: string;
  Events: Array<{ Type: string; DisplayMessage: string }>;
}
interface Alloc {
  ID: string;
  ClientStatus: string;
  DeploymentStatus?: { Healthy: boolean | null } | null;
  TaskStates: Record<string, TaskState> | null;
}

/** A window of half an hour two hours from now (UTC): now is never inside it while the tests run. */
function windowExcludingNow(): { Start: string; End: string; Timezone: string } {
  const hour = (new Date().getUTCHours() + 2) % 24;
  return { Start: `0 ${hour} * * * *`, End: `30 ${hour}`, Timezone: 'UTC' };
}

/** A raw_exec task that sleeps with a marker only it has, so the test can tell whether its process runs. */
function sleeper(name: string, marker: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: name,
    Driver: 'raw_exec',
    Config: { command: '/bin/sh', args: ['-c', `exec sleep ${marker}`] },
    KillTimeout: 2000 * MS,
    Resources: { CPU: 20, MemoryMB: 16 },
    ...extra,
  };
}

const marker = () => String(400_000 + Math.floor(Math.random() * 500_000));
const processes = (m: string) => liveProcesses(['sleep', m]);

function api(srv: TestServer, allocId: string, token?: string) {
  const c = srv.client(token);
  return {
    alloc: async () => (await c.scheduler<Alloc>('GET', `/v1/allocation/${allocId}`)).body,
    pauseOf: async (task: string) => (await c.scheduler<{ ScheduleState: string }>('GET', `/v1/client/allocation/${allocId}/pause`, { query: { task } })).body.ScheduleState,
    setPause: (Task: string, ScheduleState: string) => c.scheduler<{ Index: number }>('POST', `/v1/client/allocation/${allocId}/pause`, { body: { Task, ScheduleState } }),
  };
}

async function startJob(srv: TestServer, job: Record<string, unknown>): Promise<string> {
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
  const [alloc] = await until(
    async () => (await srv.client().scheduler<Alloc[]>('GET', `/v1/job/${String(job.ID)}/allocations`)).body,
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    `the allocation of ${String(job.ID)} to run`,
  );
  return alloc.ID;
}

describe('task pause schedules', () => {
  let srv: TestServer;
  let allocId: string;
  let a: ReturnType<typeof api>;
  const night = marker();
  const always = marker();

  beforeAll(async () => {
    srv = await startTestServer();
    allocId = await startJob(srv, {
      ID: 'sched',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          Count: 1,
          Update: { MaxParallel: 1, MinHealthyTime: 500 * MS, HealthyDeadline: 60_000 * MS, ProgressDeadline: 120_000 * MS },
          Tasks: [sleeper('night', night, { Schedule: { Cron: windowExcludingNow() } }), sleeper('always', always)],
        },
      ],
    });
    a = api(srv, allocId);
  });

  afterAll(async () => {
    await srv?.close();
  });

  it('a task whose window excludes now starts paused: no process, counted running, the deployment healthy', async () => {
    const alloc = await until(a.alloc, (x) => x.TaskStates?.night?.Paused === 'scheduled_pause' && x.TaskStates?.always?.State === 'running', 'the night task paused');
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    const nightState = alloc.TaskStates!.night;
    expect(nightState.State).toBe('running');
    expect(nightState.Failed).toBe(false);
    expect(nightState.StartedAt).toBe(ZERO_TIME);
    expect(nightState.Events).toContainEqual(expect.objectContaining({ Type: 'Pausing', DisplayMessage: 'Pausing due to schedule' }));
    expect(nightState.Events.some((e) => e.Type === 'Started')).toBe(false);
    expect(processes(night)).toEqual([]);
    await until(async () => processes(always), (p) => p.length === 1, 'the unscheduled task to run');
    expect(alloc.ClientStatus).toBe('running');
    // A scheduled pause is not a failure: the allocation is judged healthy and the deployment succeeds.
    const healthy = await until(a.alloc, (x) => typeof x.DeploymentStatus?.Healthy === 'boolean', 'the health verdict');
    expect(healthy.DeploymentStatus?.Healthy).toBe(true);
    const deployment = await until(
      async () => (await srv.client().scheduler<{ Status: string } | null>('GET', '/v1/job/sched/deployment')).body,
      (d) => d?.Status === 'successful',
      'the deployment to succeed',
    );
    expect(deployment?.Status).toBe('successful');
  });

  it('a task without a schedule reads ""', async () => {
    expect(await a.pauseOf('always')).toBe('');
  });

  it('run starts the task outside its window, pause stops it, scheduled gives it back to the schedule', async () => {
    const run = await a.setPause('night', 'run');
    expect(run.body).toEqual({ Index: 0 });
    expect(await a.pauseOf('night')).toBe('force_run');
    await until(async () => processes(night), (p) => p.length === 1, 'the night task to run');
    const running = await until(a.alloc, (x) => x.TaskStates?.night?.Paused === 'force_run' && x.TaskStates.night.StartedAt !== ZERO_TIME, 'force_run reported');
    expect(running.TaskStates!.night.Events).toContainEqual(expect.objectContaining({ Type: 'Running', DisplayMessage: 'Running due to override' }));

    await a.setPause('night', 'pause');
    expect(await a.pauseOf('night')).toBe('force_pause');
    await until(async () => processes(night), (p) => p.length === 0, 'the night task to stop');
    const paused = await until(a.alloc, (x) => x.TaskStates?.night?.Paused === 'force_pause' && x.TaskStates.night.Events.some((e) => e.Type === 'Terminated'), 'force_pause reported');
    const state = paused.TaskStates!.night;
    expect(state.Events).toContainEqual(expect.objectContaining({ Type: 'Pausing', DisplayMessage: 'Pausing due to override' }));
    // Paused, not failed and not restarted: the restart policy never saw it.
    expect(state).toMatchObject({ State: 'running', Failed: false, Restarts: 0 });
    expect(state.Events.some((e) => e.Type === 'Restarting' || e.Type === 'Not Restarting')).toBe(false);
    expect(paused.ClientStatus).toBe('running');
    expect(processes(always)).toHaveLength(1);

    await a.setPause('night', 'scheduled');
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    await until(a.alloc, (x) => x.TaskStates?.night?.Paused === 'scheduled_pause', 'scheduled_pause reported');
    expect(processes(night)).toEqual([]);
  });

  it('scheduled from a run override stops the task again', async () => {
    await a.setPause('night', 'run');
    await until(async () => processes(night), (p) => p.length === 1, 'the night task to run');
    // Its start reported: a pause that comes while the process is still starting is reported before it.
    await until(a.alloc, (x) => x.TaskStates?.night?.Events.at(-1)?.Type === 'Started', 'the start reported');
    await a.setPause('night', 'scheduled');
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    await until(async () => processes(night), (p) => p.length === 0, 'the night task to stop');
    const alloc = await until(
      a.alloc,
      (x) => x.TaskStates?.night?.Paused === 'scheduled_pause' && x.TaskStates.night.Events.at(-1)?.Type === 'Terminated',
      'the stop reported',
    );
    expect(alloc.TaskStates!.night.Events.slice(-3).map((e) => e.DisplayMessage)).toEqual(['Pausing due to schedule', expect.stringMatching(/^Sent interrupt/), expect.stringMatching(/^Exit Code/)]);
    expect(alloc.TaskStates!.night).toMatchObject({ State: 'running', Failed: false, Restarts: 0 });
  });

  it('restarting or signalling the whole allocation leaves a paused task alone; the task itself cannot be signalled', async () => {
    const c = srv.client();
    const before = (await a.alloc()).TaskStates!.always.Events.filter((e) => e.Type === 'Restart Signaled').length;
    await c.scheduler('POST', `/v1/client/allocation/${allocId}/restart`, { body: { AllTasks: true } });
    await until(a.alloc, (x) => x.TaskStates!.always.Events.filter((e) => e.Type === 'Restart Signaled').length > before, 'the unscheduled task restarted');
    await c.scheduler('POST', `/v1/client/allocation/${allocId}/signal`, { body: { Signal: 'SIGCONT' } });
    const signalled = await statusOf(c.scheduler('POST', `/v1/client/allocation/${allocId}/signal`, { body: { Signal: 'SIGCONT', Task: 'night' } }));
    expect(signalled.code).toBe(400);
    expect(signalled.message).toMatch(/task "night" is not running/);
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    expect(processes(night)).toEqual([]);
    const alloc = await a.alloc();
    expect(alloc.TaskStates!.night.Events.some((e) => e.Type === 'Restart Signaled' || e.Type === 'Signaling')).toBe(false);
    // The restart's event comes before its new process: the next test counts the task's processes.
    await until(async () => processes(always), (p) => p.length === 1, 'the unscheduled task running again after its restart');
  });

  it('refuses a missing or unknown task, a bad state, a task without a schedule, and an unknown allocation', async () => {
    const c = srv.client();
    const path = `/v1/client/allocation/${allocId}/pause`;
    const noTask = await statusOf(c.scheduler('GET', path));
    expect(noTask.code).toBe(400);
    expect(noTask.message).toMatch(/"task" is required/);
    const unknownTask = await statusOf(c.scheduler('GET', path, { query: { task: 'nope' } }));
    expect(unknownTask.code).toBe(400);
    expect(unknownTask.message).toMatch(/unknown task name "nope"/);

    const bodyNoTask = await statusOf(c.scheduler('POST', path, { body: { ScheduleState: 'pause' } }));
    expect(bodyNoTask.code).toBe(400);
    expect(bodyNoTask.message).toMatch(/field "Task" is required/);
    const badState = await statusOf(c.scheduler('PUT', path, { body: { Task: 'night', ScheduleState: 'sleep' } }));
    expect(badState.code).toBe(400);
    expect(badState.message).toMatch(/^Not a valid task schedule state/);
    expect(badState.message).toMatch(/"ScheduleState"/);
    const noState = await statusOf(c.scheduler('POST', path, { body: { Task: 'night' } }));
    expect(noState.code).toBe(400);
    expect(noState.message).toMatch(/^Not a valid task schedule state/);
    // The override names the state, not the API input: force_pause is not one of pause, run, scheduled.
    expect((await statusOf(c.scheduler('POST', path, { body: { Task: 'night', ScheduleState: 'force_pause' } }))).code).toBe(400);
    const unknownBodyTask = await statusOf(c.scheduler('POST', path, { body: { Task: 'nope', ScheduleState: 'pause' } }));
    expect(unknownBodyTask.code).toBe(400);
    expect(unknownBodyTask.message).toMatch(/field "Task": unknown task name "nope"/);
    const noBody = await statusOf(c.scheduler('POST', path));
    expect(noBody.code).toBe(400);

    const unscheduled = await statusOf(a.setPause('always', 'pause'));
    expect(unscheduled.code).toBe(400);
    expect(unscheduled.message).toMatch(/task "always" has no schedule block/);
    expect(await a.pauseOf('always')).toBe('');
    expect(processes(always)).toHaveLength(1);

    const missing = randomUUID();
    expect(await statusOf(c.scheduler('GET', `/v1/client/allocation/${missing}/pause`, { query: { task: 'night' } }))).toEqual({ code: 404, message: 'alloc not found' });
    expect((await statusOf(c.scheduler('POST', `/v1/client/allocation/${missing}/pause`, { body: { Task: 'night', ScheduleState: 'run' } }))).code).toBe(404);
    const short = await statusOf(c.scheduler('GET', `/v1/client/allocation/${allocId.slice(0, 8)}/pause`, { query: { task: 'night' } }));
    expect(short.code).toBe(400);
    expect((await statusOf(c.scheduler('DELETE', path))).code).toBe(405);
  });

  it('reading needs read-job and overriding submit-job in the allocation\'s namespace', async () => {
    const root = srv.client();
    const path = `/v1/client/allocation/${allocId}/pause`;
    await root.secrets('PUT', 'sys/policies/acl/pause-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    await root.secrets('PUT', 'sys/policies/acl/pause-elsewhere', { body: { policy: 'namespace "other" { policy = "write" }' } });
    await root.secrets('PUT', 'sys/policies/acl/pause-writer', { body: { policy: 'namespace "default" { policy = "write" }' } });
    const token = async (policy: string) => String((await root.secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))?.auth?.client_token);
    const reader = srv.client(await token('pause-reader'));
    const elsewhere = srv.client(await token('pause-elsewhere'));
    const writer = srv.client(await token('pause-writer'));
    const anonymous = srv.client('');
    const read = (c: typeof root) => statusOf(c.scheduler('GET', path, { query: { task: 'night' } }));
    const write = (c: typeof root) => statusOf(c.scheduler('POST', path, { body: { Task: 'night', ScheduleState: 'scheduled' } }));

    expect((await read(anonymous)).code).toBe(403);
    expect((await write(anonymous)).code).toBe(403);
    expect((await read(elsewhere)).code).toBe(403);
    expect((await write(elsewhere)).code).toBe(403);
    expect((await read(reader)).code).toBe(200);
    expect((await write(reader)).code).toBe(403);
    expect((await read(writer)).code).toBe(200);
    expect((await write(writer)).code).toBe(200);
  });

  it('registration refuses a bad schedule, naming the field', async () => {
    const job = (Cron: Record<string, string>) => ({ Job: { ID: 'bad-sched', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [sleeper('t', marker(), { Schedule: { Cron } })] }] } });
    const register = (Cron: Record<string, string>) => statusOf(srv.client().scheduler('POST', '/v1/jobs', { body: job(Cron) }));
    const badStart = await register({ Start: '0 9 * * *', End: '0 17' });
    expect(badStart.code).toBe(400);
    expect(badStart.message).toMatch(/Task t validation failed: Schedule: cron\.start must contain 6 fields/);
    const badCron = await register({ Start: '0 9 31 2 * x', End: '0 17' });
    expect(badCron.code).toBe(400);
    expect(badCron.message).toMatch(/cron\.start "0 9 31 2 \* x" is not a valid cron expression/);
    const badEnd = await register({ Start: '0 9 * * * *', End: '0 8' });
    expect(badEnd.code).toBe(400);
    expect(badEnd.message).toMatch(/cron\.end "0 8" must come after cron\.start/);
    const badZone = await register({ Start: '0 9 * * * *', End: '0 17', Timezone: 'Atlantis/Capital' });
    expect(badZone.code).toBe(400);
    expect(badZone.message).toMatch(/cron\.timezone: unknown time zone "Atlantis\/Capital"/);
  });

  describe('svc alloc pause', () => {
    it('-status prints the state; -state sets it and prints nothing', async () => {
      const prefix = allocId.slice(0, 8);
      expect(await srv.cli(['alloc', 'pause', '-status', prefix, 'night'])).toEqual({ code: 0, stdout: 'Pause state: "scheduled_pause"\n', stderr: '' });
      expect(await srv.cli(['alloc', 'pause', '-status', allocId, 'always'])).toEqual({ code: 0, stdout: 'Pause state: ""\n', stderr: '' });
      expect(await srv.cli(['alloc', 'pause', '-state', 'run', prefix, 'night'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(await srv.cli(['alloc', 'pause', '-status', '-task', 'night', prefix])).toMatchObject({ code: 0, stdout: 'Pause state: "force_run"\n' });
      await until(async () => processes(night), (p) => p.length === 1, 'the night task to run');
      expect(await srv.cli(['alloc', 'pause', '-state=pause', prefix, 'night'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await srv.cli(['alloc', 'pause', '-status', prefix, 'night'])).stdout).toBe('Pause state: "force_pause"\n');
      await until(async () => processes(night), (p) => p.length === 0, 'the night task to stop');
      expect(await srv.cli(['alloc', 'pause', '-state', 'scheduled', prefix, 'night'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await srv.cli(['alloc', 'pause', '-status', prefix, 'night'])).stdout).toBe('Pause state: "scheduled_pause"\n');
    });

    it('wants exactly one of -state and -status, a valid state, a task, and a known allocation and task', async () => {
      const prefix = allocId.slice(0, 8);
      const neither = await srv.cli(['alloc', 'pause', prefix, 'night']);
      expect(neither.code).toBe(1);
      expect(neither.stderr).toMatch(/Give -state pause\|run\|scheduled to override the schedule, or -status to read it/);
      const both = await srv.cli(['alloc', 'pause', '-state', 'run', '-status', prefix, 'night']);
      expect(both.code).toBe(1);
      expect(both.stderr).toMatch(/Give either -state or -status, not both/);
      const badState = await srv.cli(['alloc', 'pause', '-state', 'sleep', prefix, 'night']);
      expect(badState.code).toBe(1);
      expect(badState.stderr).toMatch(/invalid value "sleep" for -state: must be one of pause, run, scheduled/);
      const noTask = await srv.cli(['alloc', 'pause', '-status', prefix]);
      expect(noTask.code).toBe(1);
      expect(noTask.stderr).toMatch(/A task is required/);
      const unknownTask = await srv.cli(['alloc', 'pause', '-status', prefix, 'nope']);
      expect(unknownTask.code).toBe(1);
      expect(unknownTask.stderr).toMatch(/^Could not find task named: nope, found:/);
      const unknownAlloc = await srv.cli(['alloc', 'pause', '-status', 'ffffffff', 'night']);
      expect(unknownAlloc.code).toBe(1);
      expect(unknownAlloc.stderr).toMatch(/No allocation\(s\) with prefix or id "ffffffff" found/);
      const unscheduled = await srv.cli(['alloc', 'pause', '-state', 'pause', prefix, 'always']);
      expect(unscheduled.code).toBe(1);
      expect(unscheduled.stderr).toMatch(/^Error setting pause state: Unexpected response code: 400 \(task "always" has no schedule block/);
      const denied = await srv.cli(['alloc', 'pause', '-status', prefix, 'night'], { token: '' });
      expect(denied.code).toBe(1);
    });
  });

  it('stopping the job stops a paused task: dead, not failed, the allocation complete', async () => {
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    await srv.client().scheduler('DELETE', '/v1/job/sched');
    const done = await until(a.alloc, (x) => x.ClientStatus === 'complete', 'the allocation to complete');
    expect(done.TaskStates!.night).toMatchObject({ State: 'dead', Failed: false, Restarts: 0 });
    expect(processes(night)).toEqual([]);
    expect(processes(always)).toEqual([]);
    const refused = await statusOf(a.setPause('night', 'run'));
    expect(refused.code).toBe(400);
    expect(refused.message).toMatch(/is not running/);
  });
});

describe('a pause override survives a restart of the node', () => {
  let dataDir: string;
  let srv: TestServer | undefined;
  const task = marker();

  beforeAll(async () => {
    dataDir = await makeTempDir('svc-pause-restart-');
  });

  afterAll(async () => {
    await srv?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a run override is kept: the same process keeps running, and scheduled then pauses it', async () => {
    // The first server leaves its tasks running when it stops, as a real node does.
    srv = await startTestServer({ dataDir, client: { stopTasksOnShutdown: false } });
    const allocId = await startJob(srv, {
      ID: 'sched-restart',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('night', task, { Schedule: { Cron: windowExcludingNow() } })] }],
    });
    // A restarted server keeps its ACLs: the first one's root token is the only one.
    const root = srv.rootToken;
    let a = api(srv, allocId);
    await until(() => a.pauseOf('night'), (s) => s === 'scheduled_pause', 'the task paused');
    await a.setPause('night', 'run');
    const [pid] = await until(async () => processes(task), (p) => p.length === 1, 'the task to run');
    await until(a.alloc, (x) => x.TaskStates?.night?.Paused === 'force_run', 'force_run reported');
    await srv.close();
    srv = undefined;
    expect(processes(task)).toEqual([pid]);

    srv = await startTestServer({ dataDir });
    a = api(srv, allocId, root);
    expect(await until(() => a.pauseOf('night'), () => true, 'the node to know the allocation again')).toBe('force_run');
    expect(processes(task)).toEqual([pid]);
    const alloc = await until(a.alloc, (x) => x.ClientStatus === 'running', 'the allocation running');
    expect(alloc.TaskStates!.night.Restarts).toBe(0);

    await a.setPause('night', 'scheduled');
    expect(await a.pauseOf('night')).toBe('scheduled_pause');
    await until(async () => processes(task), (p) => p.length === 0, 'the task to stop');
  });
});
