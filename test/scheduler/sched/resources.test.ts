import { describe, expect, it } from 'vitest';
import { arrayState, type ArrayData } from '../../../src/scheduler/sched/index.js';
import { makeJob, makeNode, makeNodes, schedule, scheduleAndApply, simpleJob } from './helpers.js';

function portJob(count: number, ports: { reserved?: { Label: string; Value: number }[]; dynamic?: string[] }) {
  return makeJob({
    TaskGroups: [
      {
        Name: 'g',
        Count: count,
        Networks: [{ ReservedPorts: ports.reserved ?? [], DynamicPorts: (ports.dynamic ?? []).map((Label) => ({ Label, To: 8080 })) }],
        Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }],
      },
    ],
  });
}

describe('resources', () => {
  it('places up to capacity, then reports the exhausted dimension and a blocked evaluation', async () => {
    const job = makeJob(simpleJob(3, {}, { Resources: { CPU: 600, MemoryMB: 64 } }));
    const nodes = makeNodes(2, { cpu: 1000 });
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place).toHaveLength(2);
    expect(new Set(r.plan.Place.map((a) => a.NodeID)).size).toBe(2);
    const metric = r.eval.FailedTGAllocs!.g;
    expect(metric).toMatchObject({ NodesExhausted: 2, DimensionExhausted: { cpu: 2 }, CoalescedFailures: 0, NodesEvaluated: 2 });
    expect(r.eval.QueuedAllocations).toEqual({ g: 1 });
    expect(r.eval.Status).toBe('complete');
    const blocked = r.createEvals.find((e) => e.Status === 'blocked')!;
    expect(blocked).toMatchObject({
      JobID: 'web',
      TriggeredBy: 'queued-allocs',
      StatusDescription: 'created to place remaining allocations',
      FailedTGAllocs: { g: metric },
    });
    expect(blocked.PreviousEval).toBe(r.plan.EvalID);
    expect(r.eval.BlockedEval).toBe(blocked.ID);
  });

  it('counts memory and disk, and what other jobs already use', async () => {
    const nodes = [makeNode('a', { memoryMB: 1000 })];
    const other = makeJob({ ID: 'other', ...simpleJob(1, {}, { Resources: { CPU: 100, MemoryMB: 700 } }) });
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, other);
    expect(arrayState(data).nodeUsage('id-a')).toMatchObject({ cpu: 100, memoryMB: 700, diskMB: 300 });
    const job = makeJob(simpleJob(1, {}, { Resources: { CPU: 100, MemoryMB: 400 } }));
    let r = await schedule(data, job);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ memory: 1 });
    const big = makeJob({ ...simpleJob(1), TaskGroups: [{ Name: 'g', EphemeralDisk: { SizeMB: 200_000 }, Tasks: [{ Name: 't', Driver: 'mock' }] }] });
    r = await schedule(data, big);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ disk: 1 });
  });

  it('subtracts reserved resources from the node', async () => {
    const node = makeNode('a', { cpu: 1000 });
    node.ReservedResources.Cpu.CpuShares = 500;
    const job = makeJob(simpleJob(1, {}, { Resources: { CPU: 600, MemoryMB: 10 } }));
    const r = await schedule({ jobs: [], allocs: [], nodes: [node] }, job);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ cpu: 1 });
  });

  it('packs: a partly used node is preferred to an empty one', async () => {
    const nodes = makeNodes(2, { cpu: 1000, memoryMB: 1000 });
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    const job = makeJob(simpleJob(1, {}, { Resources: { CPU: 300, MemoryMB: 300 } }));
    await scheduleAndApply(data, job);
    const other = makeJob({ ID: 'other', ...simpleJob(1, {}, { Resources: { CPU: 300, MemoryMB: 300 } }) });
    const r = await schedule(data, other);
    expect(r.plan.Place[0].NodeID).toBe(data.allocs[0].NodeID);
  });

  it('spreads a group away from nodes that already run it (job anti-affinity)', async () => {
    const nodes = makeNodes(2, { cpu: 10_000, memoryMB: 10_000 });
    const r = await schedule({ jobs: [], allocs: [], nodes }, makeJob(simpleJob(2)));
    expect(new Set(r.plan.Place.map((a) => a.NodeID)).size).toBe(2);
    const scored = r.plan.Place[1].Metrics!.ScoreMetaData!;
    expect(scored.some((s) => s.Scores['job-anti-affinity'] < 0)).toBe(true);
  });
});

describe('ports', () => {
  it('a static port collides with the same port on the node', async () => {
    const job = portJob(2, { reserved: [{ Label: 'http', Value: 8080 }] });
    const r = await schedule({ jobs: [], allocs: [], nodes: makeNodes(1) }, job);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0].AllocatedResources.Shared.Ports).toEqual([{ Label: 'http', Value: 8080, To: 0, HostIP: '10.0.0.1' }]);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ 'network: reserved port collision http=8080': 1 });
  });

  it('a static port collides with an allocation of another job and with the node reserved ports', async () => {
    const nodes = makeNodes(1);
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, makeJob({ ...portJob(1, { reserved: [{ Label: 'a', Value: 9000 }] }), ID: 'other' }));
    let r = await schedule(data, portJob(1, { reserved: [{ Label: 'b', Value: 9000 }] }));
    expect(r.plan.Place).toEqual([]);
    nodes[0].ReservedResources.Networks.ReservedHostPorts = '22,7000-7010';
    r = await schedule({ jobs: [], allocs: [], nodes }, portJob(1, { reserved: [{ Label: 'ssh', Value: 7005 }] }));
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ 'network: reserved port collision ssh=7005': 1 });
  });

  it('dynamic ports are unique on the node and inside its range, with the node IP', async () => {
    const nodes = makeNodes(1, { minPort: 20000, maxPort: 20099 });
    const r = await schedule({ jobs: [], allocs: [], nodes }, portJob(50, { dynamic: ['http', 'admin'] }));
    expect(r.plan.Place).toHaveLength(50);
    const values = r.plan.Place.flatMap((a) => a.AllocatedResources.Shared.Ports!.map((p) => p.Value));
    expect(new Set(values).size).toBe(100);
    expect(values.every((v) => v >= 20000 && v <= 20099)).toBe(true);
    expect(r.plan.Place[0].AllocatedResources.Shared.Ports![0]).toMatchObject({ Label: 'http', To: 8080, HostIP: '10.0.0.1' });
  });

  it('runs out of dynamic ports when the range is full', async () => {
    const nodes = makeNodes(1, { minPort: 20000, maxPort: 20009 });
    const r = await schedule({ jobs: [], allocs: [], nodes }, portJob(6, { dynamic: ['http', 'admin'] }));
    expect(r.plan.Place).toHaveLength(5);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ 'network: dynamic port selection failed': 1 });
  });

  it('a destructive update may reuse the static port of the allocation it replaces', async () => {
    const nodes = makeNodes(1);
    const v0 = portJob(1, { reserved: [{ Label: 'http', Value: 8080 }] });
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, v0);
    const v1 = { ...portJob(1, { reserved: [{ Label: 'http', Value: 8080 }] }), Version: 1, JobModifyIndex: 11 };
    v1.TaskGroups[0].Tasks[0].Env = { NEW: '1' };
    const r = await schedule(data, v1);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Updates).toMatchObject([{ ID: data.allocs[0].ID, DesiredStatus: 'stop' }]);
  });

  it('a failed destructive update keeps the old allocation running', async () => {
    const nodes = makeNodes(1, { cpu: 1000 });
    const v0 = makeJob(simpleJob(1, {}, { Resources: { CPU: 400, MemoryMB: 10 } }));
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, v0);
    const v1 = makeJob(simpleJob(1, {}, { Resources: { CPU: 1200, MemoryMB: 10 } }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.Place).toEqual([]);
    expect(r.plan.Updates).toEqual([]);
    expect(r.eval.FailedTGAllocs!.g.DimensionExhausted).toEqual({ cpu: 1 });
  });
});
