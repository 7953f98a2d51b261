/**
 * The drainer's decisions (src/scheduler/drainer/plan.ts), state in, plan out: the schedulers of the
 * scheduler harness place and migrate, the tests play the nodes (client status, health) and the clock.
 */
import { describe, expect, it } from 'vitest';
import { planDrains, type DrainView } from '../../../src/scheduler/drainer/plan.js';
import type { ArrayData } from '../../../src/scheduler/sched/index.js';
import { ZERO_TIME, type Allocation } from '../../../src/scheduler/structs/allocation.js';
import type { Job } from '../../../src/scheduler/structs/job.js';
import type { DrainStrategy, Node } from '../../../src/scheduler/structs/node.js';
import { makeJob, makeNode, scheduleAndApply, simpleJob, SEC } from '../sched/helpers.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function view(data: ArrayData): DrainView {
  const key = (ns: string, id: string) => `${ns}\u0000${id}`;
  return {
    nodes: () => data.nodes,
    alloc: (id) => data.allocs.find((a) => a.ID === id),
    allocsOfNode: (id) => data.allocs.filter((a) => a.NodeID === id),
    allocsOfJob: (ns, id) => data.allocs.filter((a) => key(a.Namespace, a.JobID) === key(ns, id)),
    job: (ns, id) => data.jobs.find((j) => key(j.Namespace, j.ID) === key(ns, id)),
    allocJob: (a) => data.jobs.find((j) => j.ID === a.JobID) ?? null,
  };
}

function drain(node: Node, spec: Partial<DrainStrategy> = {}): void {
  node.DrainStrategy = { Deadline: 0, IgnoreSystemJobs: false, ForceDeadline: ZERO_TIME, StartedAt: new Date(NOW).toISOString(), ...spec };
  node.SchedulingEligibility = 'ineligible';
}

/** What the nodes report once they act: placed allocations run, stopped ones complete. */
function nodesAct(data: ArrayData): void {
  for (const a of data.allocs) {
    if (a.DesiredStatus !== 'run' && a.ClientStatus !== 'complete') a.ClientStatus = 'complete';
    else if (a.DesiredStatus === 'run' && a.ClientStatus === 'pending') a.ClientStatus = 'running';
  }
}

/** Marks what the plan says and runs the job's scheduler, as the drainer's evaluation does. */
async function migrate(data: ArrayData, job: Job, allocs: Allocation[]): Promise<void> {
  for (const a of allocs) data.allocs.find((x) => x.ID === a.ID)!.DesiredTransition.Migrate = true;
  await scheduleAndApply(data, job, { TriggeredBy: 'node-drain' });
  nodesAct(data);
}

const ids = (allocs: Allocation[]) => allocs.map((a) => a.ID).sort();

async function placed(job: Job, nodes: Node[]): Promise<ArrayData> {
  const data: ArrayData = { jobs: [job], allocs: [], nodes };
  await scheduleAndApply(data, job);
  nodesAct(data);
  return data;
}

describe('planDrains', () => {
  it('marks service allocations up to max_parallel over every draining node, then one more per healthy replacement', async () => {
    const [a, b] = [makeNode('a'), makeNode('b')];
    const job = makeJob(simpleJob(4, {}, {}));
    job.TaskGroups[0].Migrate!.MaxParallel = 2;
    const data = await placed(job, [a, b]);
    expect(new Set(data.allocs.map((x) => x.NodeID))).toEqual(new Set([a.ID, b.ID]));
    data.nodes.push(makeNode('c'), makeNode('d'));
    drain(a);
    drain(b);

    const first = planDrains(view(data), NOW);
    expect(first.migrate).toHaveLength(2);
    expect(first.complete).toEqual([]);
    expect(first.draining).toBe(2);
    await migrate(data, job, first.migrate);
    // Stopped and replaced on the other nodes, the replacements not yet healthy: nothing more.
    const replacements = data.allocs.filter((x) => first.migrate.some((m) => m.ID === x.PreviousAllocation));
    expect(replacements.map((r) => r.NodeID).every((n) => n === 'id-c' || n === 'id-d')).toBe(true);
    expect(planDrains(view(data), NOW).migrate).toEqual([]);

    replacements[0].DeploymentStatus = { Healthy: true, Timestamp: '', Canary: false, ModifyIndex: 1 };
    const second = planDrains(view(data), NOW);
    expect(second.migrate).toHaveLength(1);
    expect(ids(second.migrate)).not.toContain(first.migrate[0].ID);
  });

  it("keeps counting a node's migrations after its drain completed", async () => {
    const [a, b] = [makeNode('a'), makeNode('b')];
    const job = makeJob(simpleJob(4));
    job.TaskGroups[0].Migrate!.MaxParallel = 2;
    const data = await placed(job, [a, b]);
    data.nodes.push(makeNode('c'));
    // The two oldest allocations are on a: they go first, and a is done once they have.
    const onA = data.allocs.filter((x) => x.NodeID === a.ID);
    expect(onA).toHaveLength(2);
    onA.forEach((x, i) => (x.CreateIndex = i));
    drain(a);
    drain(b);
    const first = planDrains(view(data), NOW);
    expect(ids(first.migrate)).toEqual(ids(onA));
    await migrate(data, job, first.migrate);
    expect(planDrains(view(data), NOW).complete).toEqual([{ node: a, deadlineReached: false }]);
    a.DrainStrategy = null;
    // Their replacements are not healthy yet: b's allocations wait.
    expect(planDrains(view(data), NOW).migrate).toEqual([]);
  });

  it('lets the next migration go once the replacement is judged, healthy or not (its healthy_deadline passed)', async () => {
    const job = makeJob(simpleJob(2));
    const data = await placed(job, [makeNode('a')]);
    data.nodes.push(makeNode('b'));
    drain(data.nodes[0]);
    const [first] = planDrains(view(data), NOW).migrate;
    await migrate(data, job, [first]);
    expect(planDrains(view(data), NOW).migrate).toEqual([]);
    data.allocs.find((x) => x.PreviousAllocation === first.ID)!.DeploymentStatus = { Healthy: false, Timestamp: '', Canary: false, ModifyIndex: 1 };
    expect(planDrains(view(data), NOW).migrate).toHaveLength(1);
  });

  it('counts a migration done only when the newest replacement in the chain is judged', async () => {
    const job = makeJob(simpleJob(2));
    const data = await placed(job, [makeNode('a')]);
    data.nodes.push(makeNode('b'));
    drain(data.nodes[0]);
    const [first] = planDrains(view(data), NOW).migrate;
    await migrate(data, job, [first]);
    // The replacement failed and was replaced again; the newest one is healthy.
    const replacement = data.allocs.find((x) => x.PreviousAllocation === first.ID)!;
    replacement.ClientStatus = 'failed';
    const again = { ...replacement, ID: 'again', PreviousAllocation: replacement.ID, ClientStatus: 'running' as const };
    replacement.NextAllocation = again.ID;
    data.allocs.push(again);
    expect(planDrains(view(data), NOW).migrate).toEqual([]);
    again.DeploymentStatus = { Healthy: true, Timestamp: '', Canary: false, ModifyIndex: 1 };
    expect(planDrains(view(data), NOW).migrate).toHaveLength(1);
  });

  it('holds a migration whose replacement waits for capacity, but not one the job no longer wants', async () => {
    const job = makeJob(simpleJob(2));
    const data = await placed(job, [makeNode('a')]);
    drain(data.nodes[0]);
    const [first] = planDrains(view(data), NOW).migrate;
    // Nowhere else to go: stopped, its replacement not placed.
    await migrate(data, job, [first]);
    expect(data.allocs.find((x) => x.ID === first.ID)!.DesiredStatus).toBe('stop');
    expect(data.allocs.some((x) => x.PreviousAllocation === first.ID)).toBe(false);
    expect(planDrains(view(data), NOW).migrate).toEqual([]);
    // Scaled down to what is left: no replacement is coming, so the next may go.
    job.TaskGroups[0].Count = 1;
    expect(planDrains(view(data), NOW).migrate).toHaveLength(1);
  });

  it('leaves batch allocations to finish, and forces what is left at the deadline', async () => {
    const job = makeJob(simpleJob(1, { Type: 'batch' }));
    const data = await placed(job, [makeNode('a')]);
    const node = data.nodes[0];
    const deadline = NOW + 60_000;
    drain(node, { Deadline: 60 * SEC, ForceDeadline: new Date(deadline).toISOString() });
    const before = planDrains(view(data), NOW);
    expect(before).toMatchObject({ migrate: [], complete: [], nextDeadlineMs: deadline });
    const at = planDrains(view(data), deadline);
    expect(ids(at.migrate)).toEqual(ids(data.allocs));
    expect(at.complete).toEqual([{ node, deadlineReached: true }]);
    // Finished before the deadline instead: the drain is done.
    data.allocs[0].ClientStatus = 'complete';
    expect(planDrains(view(data), NOW)).toMatchObject({ migrate: [], complete: [{ node, deadlineReached: false }] });
  });

  it('forces everything, system allocations too, when the deadline is negative', async () => {
    const node = makeNode('a');
    const web = makeJob(simpleJob(1));
    const agent = makeJob({ ...simpleJob(1, { Type: 'system' }), ID: 'agent' });
    const data = await placed(web, [node]);
    data.jobs.push(agent);
    await scheduleAndApply(data, agent);
    nodesAct(data);
    drain(node, { Deadline: -1 });
    const plan = planDrains(view(data), NOW);
    expect(ids(plan.migrate)).toEqual(ids(data.allocs));
    expect(plan.complete).toEqual([{ node, deadlineReached: true }]);
  });

  it('stops system allocations once everything else has stopped on the node, unless the drain ignores them', async () => {
    const node = makeNode('a');
    const web = makeJob(simpleJob(1));
    const agent = makeJob({ ...simpleJob(1, { Type: 'system' }), ID: 'agent' });
    const data = await placed(web, [node, makeNode('b')]);
    data.jobs.push(agent);
    await scheduleAndApply(data, agent);
    nodesAct(data);
    const webAlloc = data.allocs.find((a) => a.JobID === 'web')!;
    webAlloc.NodeID = node.ID;
    const agentOnNode = data.allocs.find((a) => a.JobID === 'agent' && a.NodeID === node.ID)!;
    drain(node);
    expect(ids(planDrains(view(data), NOW).migrate)).toEqual([webAlloc.ID]);
    // Told to stop, still running on the node: the system allocation waits.
    webAlloc.DesiredTransition.Migrate = true;
    webAlloc.DesiredStatus = 'stop';
    expect(planDrains(view(data), NOW)).toMatchObject({ migrate: [], complete: [] });
    webAlloc.ClientStatus = 'complete';
    expect(planDrains(view(data), NOW)).toMatchObject({ migrate: [agentOnNode], complete: [{ node, deadlineReached: false }] });
    node.DrainStrategy!.IgnoreSystemJobs = true;
    expect(planDrains(view(data), NOW)).toMatchObject({ migrate: [], complete: [{ node, deadlineReached: false }] });
  });

  it('leaves allocations of a stopped job to the scheduler', async () => {
    const job = makeJob(simpleJob(1));
    const data = await placed(job, [makeNode('a')]);
    drain(data.nodes[0]);
    job.Stop = true;
    expect(planDrains(view(data), NOW)).toMatchObject({ migrate: [], complete: [], draining: 1 });
  });

  it('has nothing to do without draining nodes', async () => {
    const data = await placed(makeJob(simpleJob(2)), [makeNode('a')]);
    expect(planDrains(view(data), NOW)).toEqual({ migrate: [], complete: [], draining: 0 });
  });
});
