import { describe, expect, it } from 'vitest';
import { arrayState, schedulerFor, type ArrayData } from '../../../src/scheduler/sched/index.js';
import { evalFor, live, makeJob, makeNode, makeNodes, names, schedule, scheduleAndApply, simpleJob } from './helpers.js';

describe('generic scheduler: counts', () => {
  it('places count allocations named by index, with complete records', async () => {
    const job = makeJob(simpleJob(3));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(3) };
    const r = await scheduleAndApply(data, job);
    expect(names(r.plan.Place)).toEqual(['web.g[0]', 'web.g[1]', 'web.g[2]']);
    expect(r.eval).toMatchObject({ Status: 'complete', FailedTGAllocs: null, QueuedAllocations: { g: 0 } });
    expect(r.desiredUpdates.g).toMatchObject({ Place: 3, Stop: 0 });
    expect(r.createEvals).toEqual([]);
    const a = r.plan.Place[0];
    expect(a).toMatchObject({
      Namespace: 'default',
      JobID: 'web',
      JobVersion: 0,
      JobModifyIndex: 10,
      TaskGroup: 'g',
      DesiredStatus: 'run',
      ClientStatus: 'pending',
      PreviousAllocation: '',
      RescheduleTracker: null,
    });
    expect(a.AllocatedResources.Tasks.t).toEqual({ Cpu: { CpuShares: 100, ReservedCores: null }, Memory: { MemoryMB: 64, MemoryMaxMB: 0 }, Networks: null, Devices: null });
    expect(a.AllocatedResources.Shared).toEqual({ DiskMB: 300, Networks: null, Ports: null });
    expect(a.Metrics?.NodesAvailable).toEqual({ dc1: 3 });
    expect(a.Metrics?.ScoreMetaData?.[0].Scores.binpack).toBeGreaterThan(0);
  });

  it('scales up into the next free indexes and leaves the running ones alone', async () => {
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, makeJob(simpleJob(3)));
    const bigger = makeJob(simpleJob(5), 1);
    const r = await schedule(data, bigger);
    expect(names(r.plan.Place)).toEqual(['web.g[3]', 'web.g[4]']);
    // A count change alone is an in-place update of the running allocations.
    expect(r.plan.InPlace).toHaveLength(3);
    expect(r.plan.Updates).toEqual([]);
  });

  it('scales down by stopping the highest indexes', async () => {
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(3) };
    const job = makeJob(simpleJob(5));
    await scheduleAndApply(data, job);
    const smaller = { ...job, TaskGroups: [{ ...job.TaskGroups[0], Count: 2 }] };
    const r = await schedule(data, smaller);
    const stopped = r.plan.Updates.map((u) => data.allocs.find((a) => a.ID === u.ID)!.Name).sort();
    expect(stopped).toEqual(['web.g[2]', 'web.g[3]', 'web.g[4]']);
    expect(r.plan.Updates[0]).toMatchObject({ DesiredStatus: 'stop', DesiredDescription: 'alloc not needed due to job update' });
    expect(r.plan.Place).toEqual([]);
    expect(r.desiredUpdates.g).toMatchObject({ Stop: 3, Ignore: 2 });
  });

  it('replaces a terminal allocation, reusing its index', async () => {
    const job = makeJob(simpleJob(2));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const first = data.allocs.find((a) => a.Name === 'web.g[0]')!;
    Object.assign(first, { DesiredStatus: 'stop', DesiredDescription: 'alloc stopped by user' });
    const r = await schedule(data, job);
    expect(names(r.plan.Place)).toEqual(['web.g[0]']);
  });

  it('migrates an allocation marked to migrate: stops it and places its replacement', async () => {
    const job = makeJob(simpleJob(1));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const old = data.allocs[0];
    old.DesiredTransition.Migrate = true;
    const r = await schedule(data, job);
    expect(r.plan.Updates).toEqual([{ ID: old.ID, DesiredStatus: 'stop', DesiredDescription: 'alloc is being migrated' }]);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0]).toMatchObject({ Name: old.Name, PreviousAllocation: old.ID });
    expect(r.desiredUpdates.g.Migrate).toBe(1);
  });

  it('stops everything when the job is stopped, and when it is purged', async () => {
    const job = makeJob(simpleJob(3));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, job);
    const stopped = { ...job, Stop: true };
    let r = await schedule({ ...data, jobs: [stopped] }, stopped);
    expect(r.plan.Place).toEqual([]);
    expect(r.plan.Job).toBe(stopped);
    expect(r.plan.Updates).toHaveLength(3);
    expect(r.plan.Updates.every((u) => u.DesiredStatus === 'stop' && u.DesiredDescription === 'alloc not needed due to job update')).toBe(true);
    expect(r.desiredUpdates.g.Stop).toBe(3);

    r = await schedulerFor('service')(evalFor(job), arrayState({ ...data, jobs: [] }));
    expect(r.plan.Job).toBeNull();
    expect(r.plan.Updates).toHaveLength(3);
    expect(r.eval.QueuedAllocations).toEqual({});
  });

  it('stops the allocations of a group removed from the job', async () => {
    const job = makeJob(simpleJob(2));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const renamed = makeJob({ TaskGroups: [{ Name: 'h', Count: 1, Tasks: [{ Name: 't', Driver: 'mock' }] }] }, 1);
    const r = await schedule(data, renamed);
    expect(r.plan.Updates).toHaveLength(2);
    expect(names(r.plan.Place)).toEqual(['web.h[0]']);
    expect(r.desiredUpdates.g.Stop).toBe(2);
  });
});

describe('generic scheduler: updates', () => {
  async function running(count: number, update?: Record<string, unknown>) {
    const v0 = makeJob(simpleJob(count, update ? { Update: update } : {}));
    const data: ArrayData = { jobs: [v0], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, v0);
    return data;
  }

  it('updates in place when only in-place fields change: same IDs, same nodes, new version', async () => {
    const data = await running(3);
    const v1 = makeJob(simpleJob(3, {}, { KillTimeout: 9 * 1_000_000_000 }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.Place).toEqual([]);
    expect(r.plan.Updates).toEqual([]);
    expect(r.plan.InPlace).toHaveLength(3);
    for (const a of r.plan.InPlace) {
      const before = data.allocs.find((b) => b.ID === a.ID)!;
      expect(a.NodeID).toBe(before.NodeID);
      expect(a.JobVersion).toBe(1);
      expect(a.JobModifyIndex).toBe(11);
    }
    expect(r.desiredUpdates.g).toMatchObject({ InPlaceUpdate: 3, DestructiveUpdate: 0 });
  });

  it('replaces allocations when a task changes destructively: stop the old, place the new under its name', async () => {
    const data = await running(3, { MaxParallel: 3 });
    const v1 = makeJob(simpleJob(3, { Update: { MaxParallel: 3 } }, { Env: { A: '1' } }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.InPlace).toEqual([]);
    expect(r.plan.Place).toHaveLength(3);
    for (const p of r.plan.Place) {
      const old = data.allocs.find((a) => a.ID === p.PreviousAllocation)!;
      expect(old.Name).toBe(p.Name);
      expect(p.JobVersion).toBe(1);
    }
    expect(r.plan.Updates.map((u) => u.DesiredDescription)).toEqual(Array(3).fill('alloc is being updated due to job update'));
    expect(r.desiredUpdates.g).toMatchObject({ DestructiveUpdate: 3, InPlaceUpdate: 0 });
    expect(r.eval.NextEval).toBeUndefined();
  });

  it('treats an update as destructive when the old version is unknown', async () => {
    const data = await running(2);
    const v1 = makeJob(simpleJob(2, {}, { KillTimeout: 9 * 1_000_000_000 }), 1);
    const r = await schedule({ ...data, jobVersions: [] }, v1);
    // The state keeps no version 0 here, so the scheduler cannot prove the change is in-place safe.
    expect(r.plan.InPlace).toEqual([]);
    expect(r.desiredUpdates.g.DestructiveUpdate).toBeGreaterThan(0);
  });

  it('rolls a new version out under a deployment, max_parallel at a time, as replacements prove healthy', async () => {
    const data = await running(4, { MaxParallel: 2, Stagger: 5 * 1_000_000_000 });
    const v1 = makeJob(simpleJob(4, { Update: { MaxParallel: 2, Stagger: 5 * 1_000_000_000 } }, { Config: { x: 1 } }), 1);
    const r = await scheduleAndApply(data, v1);
    expect(names(r.plan.Place)).toEqual(['web.g[0]', 'web.g[1]']);
    expect(r.desiredUpdates.g).toMatchObject({ DestructiveUpdate: 2, Ignore: 2 });
    // The deployment's progress, not a stagger, brings the next batch.
    expect(r.createEvals.filter((e) => e.TriggeredBy === 'rolling-update')).toEqual([]);
    const d = r.plan.Deployment!;
    expect(d).toMatchObject({ JobVersion: 1, Status: 'running', CreateIndex: 0 });
    expect(d.TaskGroups.g).toMatchObject({ DesiredTotal: 4, PlacedAllocs: 2, HealthyAllocs: 0 });
    expect(r.plan.Place.every((a) => a.DeploymentID === d.ID)).toBe(true);
    expect(r.eval.DeploymentID).toBe(d.ID);

    // While the two replacements have not proved healthy, nothing more is replaced.
    const waiting = await scheduleAndApply(data, v1);
    expect(waiting.plan.Place).toEqual([]);
    expect(waiting.plan.Deployment?.ID).toBe(d.ID);

    // One proves healthy: one more may go.
    const first = data.allocs.find((a) => a.DeploymentID === d.ID)!;
    first.DeploymentStatus = { Healthy: true, Timestamp: new Date().toISOString(), Canary: false, ModifyIndex: 1 };
    const next = await scheduleAndApply(data, v1);
    expect(next.plan.Place).toHaveLength(1);
    expect(next.plan.Deployment).toMatchObject({ ID: d.ID, TaskGroups: { g: { PlacedAllocs: 3 } } });
  });

  it('a failed or paused deployment replaces nothing more', async () => {
    const data = await running(2, { MaxParallel: 1 });
    const v1 = makeJob(simpleJob(2, { Update: { MaxParallel: 1 } }, { Config: { x: 1 } }), 1);
    const r = await scheduleAndApply(data, v1);
    expect(r.plan.Place).toHaveLength(1);
    for (const status of ['failed', 'paused'] as const) {
      data.deployments = data.deployments!.map((x) => ({ ...x, Status: status }));
      data.allocs.filter((a) => a.DeploymentID).forEach((a) => (a.DeploymentStatus = { Healthy: true, Timestamp: '', Canary: false, ModifyIndex: 1 }));
      const halted = await schedule(data, v1);
      expect(halted.plan.Place, status).toEqual([]);
      expect(halted.plan.Deployment, status).toBeNull();
    }
  });

  it('a batch job has no rolling limit', async () => {
    const v0 = makeJob(simpleJob(3, { Type: 'batch' }));
    const data: ArrayData = { jobs: [v0], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, v0);
    const v1 = makeJob(simpleJob(3, { Type: 'batch' }, { Env: { A: '2' } }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.Place).toHaveLength(3);
    expect(r.createEvals).toEqual([]);
  });

  it('a constraint the node no longer meets turns an in-place update destructive', async () => {
    const v0 = makeJob(simpleJob(1, { Update: { MaxParallel: 5 } }));
    const data: ArrayData = { jobs: [v0], allocs: [], nodes: [makeNode('a', { meta: { tier: 'old' } }), makeNode('b', { meta: { tier: 'new' } })] };
    await scheduleAndApply(data, v0);
    const onA = data.allocs[0].NodeID === 'id-a';
    const wanted = onA ? 'new' : 'old';
    const v1 = makeJob(simpleJob(1, { Update: { MaxParallel: 5 }, Constraints: [{ LTarget: '${meta.tier}', RTarget: wanted, Operand: '=' }] }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.InPlace).toEqual([]);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0].NodeID).not.toBe(data.allocs[0].NodeID);
  });
});

describe('generic scheduler: lost allocations', () => {
  it('marks allocations on a down node lost and places replacements elsewhere', async () => {
    const job = makeJob(simpleJob(2));
    const nodes = makeNodes(3);
    const data: ArrayData = { jobs: [job], allocs: [], nodes };
    await scheduleAndApply(data, job);
    const victim = data.allocs[0];
    nodes.find((n) => n.ID === victim.NodeID)!.Status = 'down';
    const r = await schedule(data, job, { TriggeredBy: 'node-update' });
    expect(r.plan.Updates).toEqual([
      { ID: victim.ID, DesiredStatus: 'stop', DesiredDescription: 'alloc is lost since its node is down', ClientStatus: 'lost' },
    ]);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0]).toMatchObject({ Name: victim.Name, PreviousAllocation: victim.ID });
    expect(r.plan.Place[0].NodeID).not.toBe(victim.NodeID);
  });

  it('treats allocations on a node that no longer exists as lost', async () => {
    const job = makeJob(simpleJob(1));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const gone = data.allocs[0].NodeID;
    data.nodes = data.nodes.filter((n) => n.ID !== gone);
    const r = await schedule(data, job);
    expect(r.plan.Updates[0].ClientStatus).toBe('lost');
    expect(r.plan.Place[0].NodeID).not.toBe(gone);
  });
});

describe('generic scheduler: batch', () => {
  it('does not replace a complete allocation nor re-place its index', async () => {
    const job = makeJob(simpleJob(2, { Type: 'batch' }));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    data.allocs[0].ClientStatus = 'complete';
    let r = await schedule(data, job);
    expect(r.plan.Place).toEqual([]);
    data.allocs[1].ClientStatus = 'complete';
    data.allocs[1].DesiredStatus = 'stop';
    r = await schedule(data, job);
    expect(r.plan.Place).toEqual([]);
  });

  it('replaces a batch allocation that was stopped before it finished', async () => {
    const job = makeJob(simpleJob(1, { Type: 'batch' }));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(1) };
    await scheduleAndApply(data, job);
    Object.assign(data.allocs[0], { DesiredStatus: 'stop', ClientStatus: 'running' });
    const r = await schedule(data, job);
    expect(names(r.plan.Place)).toEqual(['web.g[0]']);
  });

  it('uses the better of two nodes for batch and log2(n) nodes for services', async () => {
    const nodes = makeNodes(64);
    const batch = makeJob(simpleJob(1, { Type: 'batch' }));
    let r = await schedule({ jobs: [batch], allocs: [], nodes }, batch);
    expect(r.plan.Place[0].Metrics!.ScoreMetaData).toHaveLength(2);
    const service = makeJob(simpleJob(1));
    r = await schedule({ jobs: [service], allocs: [], nodes }, service);
    expect(r.plan.Place[0].Metrics!.ScoreMetaData).toHaveLength(5);
    expect(r.plan.Place[0].Metrics!.NodesEvaluated).toBe(6);
  });
});

describe('generic scheduler: state is only read', () => {
  it('leaves the allocations it reads untouched', async () => {
    const job = makeJob(simpleJob(2));
    const data: ArrayData = { jobs: [job], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const before = JSON.stringify(data.allocs);
    await schedule(data, { ...job, TaskGroups: [{ ...job.TaskGroups[0], Count: 0 }] });
    expect(JSON.stringify(data.allocs)).toBe(before);
    expect(live(data)).toHaveLength(2);
  });
});
