import { describe, expect, it } from 'vitest';
import type { ArrayData } from '../../../src/scheduler/sched/index.js';
import { live, makeJob, makeNode, makeNodes, schedule, scheduleAndApply, simpleJob } from './helpers.js';

describe('system scheduler', () => {
  it('places one allocation, index 0, on every node that can run the group', async () => {
    const nodes = [...makeNodes(3), makeNode('nodriver', { drivers: [] }), makeNode('off', { status: 'down' })];
    const job = makeJob(simpleJob(1, { Type: 'system' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    const r = await scheduleAndApply(data, job);
    expect(r.plan.Place.map((a) => a.NodeID).sort()).toEqual(['id-n0', 'id-n1', 'id-n2']);
    expect(new Set(r.plan.Place.map((a) => a.Name))).toEqual(new Set(['web.g[0]']));
    // A node that cannot run the group is not a failed placement.
    expect(r.eval.FailedTGAllocs).toBeNull();
    expect(r.createEvals).toEqual([]);
    expect(r.desiredUpdates.g.Place).toBe(3);

    data.nodes.push(makeNode('new'));
    const again = await schedule(data, job, { TriggeredBy: 'node-update' });
    expect(again.plan.Place.map((a) => a.NodeID)).toEqual(['id-new']);
    expect(again.desiredUpdates.g).toMatchObject({ Place: 1, Ignore: 3 });
  });

  it('a feasible node without room is a failed placement', async () => {
    const nodes = [makeNode('big'), makeNode('small', { memoryMB: 32 })];
    const job = makeJob(simpleJob(1, { Type: 'system' }));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place.map((a) => a.NodeID)).toEqual(['id-big']);
    expect(r.eval.FailedTGAllocs!.g).toMatchObject({ NodesEvaluated: 1, DimensionExhausted: { memory: 1 } });
    expect(r.eval.QueuedAllocations).toEqual({ g: 1 });
  });

  it('stops allocations on nodes the new version no longer fits, and loses those on down nodes', async () => {
    const nodes = [makeNode('a', { meta: { role: 'web' } }), makeNode('b', { meta: { role: 'db' } }), makeNode('c', { meta: { role: 'web' } })];
    const v0 = makeJob(simpleJob(1, { Type: 'system' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, v0);
    nodes[2].Status = 'down';
    const v1 = makeJob(simpleJob(1, { Type: 'system', Constraints: [{ LTarget: '${meta.role}', RTarget: 'web', Operand: '=' }] }), 1);
    const r = await schedule(data, v1);
    const onNode = (id: string) => data.allocs.find((a) => a.NodeID === id)!.ID;
    expect(r.plan.Updates).toContainEqual({ ID: onNode('id-b'), DesiredStatus: 'stop', DesiredDescription: 'alloc not needed due to job update' });
    expect(r.plan.Updates).toContainEqual({ ID: onNode('id-c'), DesiredStatus: 'stop', DesiredDescription: 'alloc is lost since its node is down', ClientStatus: 'lost' });
    // A constraint change alone is updated in place where it still holds.
    expect(r.plan.InPlace.map((a) => a.NodeID)).toEqual(['id-a']);
    expect(r.plan.Place).toEqual([]);
  });

  it('replaces destructively one node at a time by default, with a rolling follow-up', async () => {
    const nodes = makeNodes(3);
    const v0 = makeJob(simpleJob(1, { Type: 'system' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, v0);
    const v1 = makeJob(simpleJob(1, { Type: 'system' }, { Env: { X: '1' } }), 1);
    const r = await schedule(data, v1);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Updates).toHaveLength(1);
    expect(r.plan.Place[0].NodeID).toBe(data.allocs.find((a) => a.ID === r.plan.Updates[0].ID)!.NodeID);
    expect(r.desiredUpdates.g).toMatchObject({ DestructiveUpdate: 1, Ignore: 2 });
    expect(r.createEvals[0]).toMatchObject({ TriggeredBy: 'rolling-update', Wait: 30_000_000_000 });
    expect(r.eval.NextEval).toBe(r.createEvals[0].ID);
  });

  it('replaces a failed system allocation on its node', async () => {
    const job = makeJob(simpleJob(1, { Type: 'system' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(1) };
    await scheduleAndApply(data, job);
    data.allocs[0].ClientStatus = 'failed';
    const r = await schedule(data, job);
    expect(r.plan.Place.map((a) => a.NodeID)).toEqual(['id-n0']);
  });

  it('stops everything when the job is stopped', async () => {
    const job = makeJob(simpleJob(1, { Type: 'system' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(2) };
    await scheduleAndApply(data, job);
    const r = await scheduleAndApply(data, { ...job, Stop: true });
    expect(r.plan.Updates).toHaveLength(2);
    expect(r.plan.Place).toEqual([]);
    expect(live(data)).toEqual([]);
  });
});

describe('sysbatch scheduler', () => {
  it('runs once per node: a complete allocation is not run again until the job changes', async () => {
    const nodes = makeNodes(2);
    const v0 = makeJob(simpleJob(1, { Type: 'sysbatch' }));
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    await scheduleAndApply(data, v0);
    for (const a of data.allocs) a.ClientStatus = 'complete';
    let r = await schedule(data, v0);
    expect(r.plan.Place).toEqual([]);
    expect(r.desiredUpdates.g.Ignore).toBe(2);

    data.nodes.push(makeNode('late'));
    r = await schedule(data, v0);
    expect(r.plan.Place.map((a) => a.NodeID)).toEqual(['id-late']);

    const v1 = makeJob(simpleJob(1, { Type: 'sysbatch' }, { Env: { RUN: '2' } }), 1);
    r = await schedule(data, v1);
    expect(r.plan.Place).toHaveLength(3);
  });
});
