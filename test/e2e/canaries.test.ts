/**
 * Canary deployments on the server's own node with the mock driver: a destructive update places the
 * canaries beside the old allocations and waits; promotion (all groups, one group, or automatic) lets
 * the rest roll; promotion refuses what Nomad refuses; a failing canary fails the deployment and is
 * stopped (with auto_revert, the last stable version comes back); plan and the CLI show the canaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';

interface GroupState {
  Promoted: boolean;
  PlacedCanaries: string[] | null;
  DesiredCanaries: number;
  DesiredTotal: number;
  HealthyAllocs: number;
}
interface Deployment {
  ID: string;
  JobVersion: number;
  Status: string;
  StatusDescription: string;
  TaskGroups: Record<string, GroupState>;
}
interface Stub {
  ID: string;
  Name: string;
  TaskGroup: string;
  JobVersion: number;
  DesiredStatus: string;
  ClientStatus: string;
  DeploymentStatus: { Healthy: boolean | null; Canary: boolean } | null;
}

let srv: TestServer;
const c = () => srv.client();
const MS = 1_000_000;

interface GroupOpts {
  name?: string;
  count?: number;
  canary?: number;
  autoPromote?: boolean;
  manual?: boolean;
  failing?: boolean;
}

function job(id: string, version: string, groups: GroupOpts[] = [{}], opts: { autoRevert?: boolean } = {}) {
  return {
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: groups.map((g) => ({
      Name: g.name ?? 'web',
      Count: g.count ?? 2,
      Update: {
        MaxParallel: 1,
        Canary: g.canary ?? 1,
        AutoPromote: g.autoPromote ?? false,
        AutoRevert: opts.autoRevert ?? false,
        HealthCheck: g.manual ? 'manual' : 'task_states',
        MinHealthyTime: 100 * MS,
        HealthyDeadline: 10_000 * MS,
        ProgressDeadline: 30_000 * MS,
      },
      RestartPolicy: { Attempts: 0, Mode: 'fail', Interval: 60_000 * MS, Delay: 100 * MS },
      ReschedulePolicy: { Attempts: 0, Unlimited: false },
      Tasks: [
        {
          Name: 'server',
          Driver: 'mock',
          Config: g.failing ? { run_for: '50ms', exit_code: 1 } : { run_for: '0s' },
          Env: { VERSION: version },
          Resources: { CPU: 10, MemoryMB: 10 },
        },
      ],
    })),
  };
}

const register = (j: unknown) => c().scheduler('POST', '/v1/jobs', { body: { Job: j } });
const latest = (id: string) => c().scheduler<Deployment | null>('GET', `/v1/job/${id}/deployment`).then((r) => r.body);
const allocs = (id: string) => c().scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body);
const live = (list: Stub[]) => list.filter((a) => a.DesiredStatus === 'run');
const promote = (d: string, body: unknown) => c().scheduler<{ EvalID: string }>('POST', `/v1/deployment/promote/${d}`, { body });

/** Registers version 0 and waits for its (canary-free) deployment to succeed. */
async function stableFirst(id: string, groups?: GroupOpts[]): Promise<void> {
  await register(job(id, '0', groups));
  await until(() => latest(id), (d) => d?.JobVersion === 0 && d.Status === 'successful', `${id} version 0 to roll out`);
}

/** Registers version 1 and waits until its canaries are placed (and, unless `healthy` is false, healthy). */
async function canariesUp(id: string, groups?: GroupOpts[], healthy = true): Promise<Deployment> {
  await register(job(id, '1', groups));
  const wanted = (groups ?? [{}]).reduce((n, g) => n + (g.canary ?? 1), 0);
  return until(
    () => latest(id),
    (d) => d?.JobVersion === 1 && Object.values(d.TaskGroups).reduce((n, g) => n + (healthy ? g.HealthyAllocs : (g.PlacedCanaries ?? []).length), 0) === wanted,
    `${id} canaries`,
  ) as Promise<Deployment>;
}

beforeAll(async () => {
  srv = await startTestServer({ client: { enableMockDriver: true, stopTasksOnShutdown: true } });
  await until(() => c().scheduler<Array<{ Status: string }>>('GET', '/v1/nodes').then((r) => r.body), (n) => n.some((x) => x.Status === 'ready'), 'the node');
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe('canary deployments', () => {
  it('a first version rolls out without canaries; a destructive update places them beside the old allocations and waits', async () => {
    await stableFirst('canary-wait');
    const d = await canariesUp('canary-wait');
    expect(d.Status).toBe('running');
    expect(d.StatusDescription).toBe('Deployment is running but requires manual promotion');
    expect(d.TaskGroups.web).toMatchObject({ DesiredCanaries: 1, Promoted: false, DesiredTotal: 2, HealthyAllocs: 1 });
    expect(d.TaskGroups.web.PlacedCanaries).toHaveLength(1);
    const now = live(await allocs('canary-wait'));
    const canary = now.find((a) => a.ID === d.TaskGroups.web.PlacedCanaries![0])!;
    // The canary takes the index of the first allocation it will replace.
    expect(canary).toMatchObject({ Name: 'canary-wait.web[0]', JobVersion: 1, DeploymentStatus: { Canary: true, Healthy: true } });
    const old = now.filter((a) => a.ID !== canary.ID);
    expect(old.map((a) => [a.Name, a.JobVersion, a.ClientStatus]).sort()).toEqual([
      ['canary-wait.web[0]', 0, 'running'],
      ['canary-wait.web[1]', 0, 'running'],
    ]);
    // Healthy canaries do not finish the deployment: it waits for promotion.
    await new Promise((r) => setTimeout(r, 300));
    expect((await latest('canary-wait'))!.Status).toBe('running');
  });

  it('plan shows the canaries to place and the destructive updates they hold back; the last version\'s canary would stop', async () => {
    const { body } = await c().scheduler<{ Annotations: { DesiredTGUpdates: Record<string, Record<string, number>> } }>('POST', '/v1/job/canary-wait/plan', {
      body: { Job: job('canary-wait', '2'), Diff: true },
    });
    expect(body.Annotations.DesiredTGUpdates.web).toMatchObject({ Canary: 1, DestructiveUpdate: 0, Ignore: 2, Place: 0, Stop: 1 });
  });

  it('promotion refuses unhealthy canaries, deployments without canaries, unknown groups and finished deployments, writing nothing', async () => {
    await stableFirst('canary-manual', [{ canary: 0, manual: false }]);
    await register(job('canary-manual', '1', [{ manual: true }]));
    const d = await until(() => latest('canary-manual'), (x) => x?.JobVersion === 1 && (x.TaskGroups.web.PlacedCanaries ?? []).length === 1, 'a canary');
    expect(await statusOf(promote(d!.ID, { DeploymentID: d!.ID, All: true }))).toEqual({ code: 400, message: 'Task group "web" has 0/1 healthy allocations' });
    expect(await statusOf(promote(d!.ID, { DeploymentID: d!.ID, Groups: ['api'] }))).toEqual({ code: 400, message: 'deployment does not include task group "api"' });
    expect(await statusOf(promote(d!.ID, { DeploymentID: d!.ID, All: 'yes' }))).toMatchObject({ code: 400 });
    expect((await latest('canary-manual'))!.TaskGroups.web.Promoted).toBe(false);
    const cli = await srv.cli(['job', 'promote', 'canary-manual']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toBe(`Error promoting deployment "${d!.ID}" for job "canary-manual": Unexpected response code: 400 (Task group "web" has 0/1 healthy allocations)\n`);

    const first = (await c().scheduler<Deployment[]>('GET', '/v1/job/canary-manual/deployments').then((r) => r.body)).find((x) => x.JobVersion === 0)!;
    expect(await statusOf(promote(first.ID, { All: true }))).toEqual({ code: 400, message: `can't promote terminal deployment (status "successful")` });
    expect(await statusOf(promote('00000000-0000-0000-0000-000000000000', { All: true }))).toMatchObject({ code: 404 });
  });

  it('svc deployment fail stops the canaries and leaves the old allocations running', async () => {
    const d = (await latest('canary-manual'))!;
    const res = await srv.cli(['deployment', 'fail', '-detach', d.ID]);
    expect(res.code).toBe(0);
    const canary = d.TaskGroups.web.PlacedCanaries![0];
    const after = await until(() => allocs('canary-manual'), (l) => l.find((a) => a.ID === canary)?.DesiredStatus === 'stop', 'the canary to stop');
    expect(live(after).map((a) => a.JobVersion)).toEqual([0, 0]);
  });

  it('svc job promote of a job without a deployment says so', async () => {
    await register({ ...job('canary-batch', '0', [{ canary: 0 }]), Type: 'batch', TaskGroups: [{ ...job('x', '0').TaskGroups[0], Update: null }] });
    const res = await srv.cli(['job', 'promote', 'canary-batch']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Job "canary-batch" has no deployment to promote\n');
  });

  it('a running deployment without canaries has none to promote', async () => {
    await register(job('canary-none', '0', [{ canary: 0, manual: true }]));
    const d = await until(() => latest('canary-none'), (x) => x?.Status === 'running', 'a deployment');
    expect(await statusOf(promote(d!.ID, { All: true }))).toEqual({ code: 400, message: 'no canaries to promote' });
  });

  it('svc job promote -group promotes one group; svc deployment promote the rest; the old allocations are then replaced and the version is stable', async () => {
    const groups = [{ name: 'web' }, { name: 'api', count: 1 }];
    await stableFirst('canary-two', groups);
    const d = await canariesUp('canary-two', groups);
    const canaries = [...d.TaskGroups.web.PlacedCanaries!, ...d.TaskGroups.api.PlacedCanaries!];

    const status = await srv.cli(['deployment', 'status', d.ID]);
    expect(status.stdout).toContain('Description = Deployment is running but requires manual promotion');
    expect(status.stdout).toMatch(/Task Group +Promoted +Desired +Canaries +Placed +Healthy +Unhealthy +Progress Deadline\n/);
    expect(status.stdout).toMatch(/\nweb +false +2 +1 +1 +1 +0 /);
    const jobStatus = await srv.cli(['job', 'status', 'canary-two']);
    expect(jobStatus.stdout).toMatch(/\nDeployed\nTask Group +Promoted +Desired +Canaries +Placed +Healthy +Unhealthy +Progress Deadline\n/);
    expect(jobStatus.stdout).toMatch(/\napi +false +1 +1 +1 +1 +0 /);
    const alloc = await srv.cli(['alloc', 'status', canaries[0]]);
    expect(alloc.stdout).toMatch(/\nCanary +\s*= true\n/);

    const one = await srv.cli(['job', 'promote', '-group', 'web', '-detach', 'canary-two']);
    expect(one.stderr).toBe('');
    expect(one.stdout).toMatch(/^Evaluation ID: [0-9a-f-]{36}\n$/);
    const web = await until(() => allocs('canary-two'), (l) => live(l).filter((a) => a.TaskGroup === 'web' && a.JobVersion === 1).length === 2, 'web to roll');
    expect(live(web).filter((a) => a.TaskGroup === 'api').map((a) => a.JobVersion).sort()).toEqual([0, 1]);
    const half = (await latest('canary-two'))!;
    expect(half).toMatchObject({ Status: 'running', StatusDescription: 'Deployment is running but requires manual promotion' });
    expect(half.TaskGroups.web.Promoted).toBe(true);
    expect(half.TaskGroups.api.Promoted).toBe(false);

    const rest = await srv.cli(['deployment', 'promote', d.ID]);
    expect(rest.stderr).toBe('');
    expect(rest.code).toBe(0);
    expect(rest.stdout).toContain(`Deployment "${d.ID.slice(0, 8)}" successful`);
    const done = (await latest('canary-two'))!;
    expect(done).toMatchObject({ Status: 'successful', StatusDescription: 'Deployment completed successfully' });
    const final = live(await allocs('canary-two'));
    expect(final.map((a) => [a.Name, a.JobVersion]).sort()).toEqual([
      ['canary-two.api[0]', 1],
      ['canary-two.web[0]', 1],
      ['canary-two.web[1]', 1],
    ]);
    // The canaries stay, as ordinary allocations.
    expect(final.filter((a) => canaries.includes(a.ID)).every((a) => a.DeploymentStatus?.Canary === false)).toBe(true);
    expect(final.filter((a) => canaries.includes(a.ID))).toHaveLength(2);
    const versions = await c().scheduler<{ Versions: Array<{ Version: number; Stable: boolean }> }>('GET', '/v1/job/canary-two/versions').then((r) => r.body);
    expect(versions.Versions.find((v) => v.Version === 1)!.Stable).toBe(true);
  });

  it('auto_promote promotes once every canary is healthy; more canaries than the count leave the count behind', async () => {
    const groups = [{ count: 1, canary: 2, autoPromote: true }];
    await stableFirst('canary-auto', groups);
    await register(job('canary-auto', '1', groups));
    const done = await until(() => latest('canary-auto'), (d) => d?.JobVersion === 1 && d.Status === 'successful', 'automatic promotion');
    expect(done!.TaskGroups.web).toMatchObject({ Promoted: true, DesiredCanaries: 2 });
    const names = done!.TaskGroups.web.PlacedCanaries!;
    expect(names).toHaveLength(2);
    const final = await until(() => allocs('canary-auto'), (l) => live(l).length === 1, 'the surplus canary to stop');
    expect(live(final)[0]).toMatchObject({ Name: 'canary-auto.web[0]', JobVersion: 1 });
    expect(names).toContain(live(final)[0].ID);
  });

  it('a failing canary fails the deployment; auto_revert brings back the stable version and stops the canary', async () => {
    await stableFirst('canary-revert');
    const old = live(await allocs('canary-revert')).map((a) => a.ID).sort();
    await register(job('canary-revert', '1', [{ failing: true }], { autoRevert: true }));
    const failed = await until(
      () => c().scheduler<Deployment[]>('GET', '/v1/job/canary-revert/deployments').then((r) => r.body.find((d) => d.JobVersion === 1)),
      (d) => d?.Status === 'failed',
      'the canary deployment to fail',
    );
    expect(failed!.StatusDescription).toBe('Failed due to unhealthy allocations - rolling back to job version 0');
    const canary = failed!.TaskGroups.web.PlacedCanaries![0];
    const after = await until(
      () => allocs('canary-revert'),
      (l) => l.find((a) => a.ID === canary)?.DesiredStatus === 'stop' && live(l).length === 2 && live(l).every((a) => a.JobVersion === 2),
      'the rollback',
    );
    // The old allocations were never replaced: the rollback updates them in place.
    expect(live(after).map((a) => a.ID).sort()).toEqual(old);
    expect(live(after).every((a) => a.ClientStatus === 'running')).toBe(true);
  });
});
