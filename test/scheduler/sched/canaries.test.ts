import { describe, expect, it } from 'vitest';
import type { ArrayData } from '../../../src/scheduler/sched/index.js';
import { live, makeJob, makeNodes, names, schedule, scheduleAndApply } from './helpers.js';

function canaryJob(version: number, count: number, canary: number) {
  return makeJob(
    {
      TaskGroups: [
        {
          Name: 'g',
          Count: count,
          Update: { MaxParallel: 1, Canary: canary },
          Tasks: [{ Name: 't', Driver: 'mock', Env: { V: String(version) }, Resources: { CPU: 100, MemoryMB: 64 } }],
        },
      ],
    },
    version,
  );
}

/** Version 0 placed and healthy; its deployment finished. */
async function runningV0(count: number, canary: number): Promise<ArrayData> {
  const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(2) };
  await scheduleAndApply(data, canaryJob(0, count, canary));
  for (const a of data.allocs) a.ClientStatus = 'running';
  for (const d of data.deployments ?? []) d.Status = 'successful';
  return data;
}

describe('canaries in the scheduler', () => {
  it('a destructive update places the canaries under the names they will replace, and nothing else', async () => {
    const data = await runningV0(3, 2);
    const r = await scheduleAndApply(data, canaryJob(1, 3, 2));
    expect(r.desiredUpdates.g).toMatchObject({ Canary: 2, Ignore: 3, DestructiveUpdate: 0, Place: 0, Stop: 0 });
    expect(names(r.plan.Place)).toEqual(['web.g[0]', 'web.g[1]']);
    expect(r.plan.Updates).toEqual([]);
    expect(r.plan.Place.every((a) => a.DeploymentStatus?.Canary === true)).toBe(true);
    const d = r.plan.Deployment!;
    expect(d.StatusDescription).toBe('Deployment is running but requires manual promotion');
    expect(d.TaskGroups.g).toMatchObject({ DesiredCanaries: 2, Promoted: false, PlacedAllocs: 2 });
    expect([...d.TaskGroups.g.PlacedCanaries!].sort()).toEqual(r.plan.Place.map((a) => a.ID).sort());

    // Evaluated again before promotion: the canaries are there, the old allocations wait.
    const again = await schedule(data, canaryJob(1, 3, 2));
    expect(again.plan.Place).toEqual([]);
    expect(again.plan.Updates).toEqual([]);
    expect(again.desiredUpdates.g).toMatchObject({ Canary: 0, Ignore: 5 });
  });

  it('once promoted, the old allocations under the canaries\' names stop and the rest are replaced max_parallel at a time', async () => {
    const data = await runningV0(3, 2);
    const job = canaryJob(1, 3, 2);
    const r = await scheduleAndApply(data, job);
    const d = data.deployments!.find((x) => x.ID === r.plan.Deployment!.ID)!;
    d.TaskGroups.g.Promoted = true;
    for (const a of data.allocs.filter((x) => x.JobVersion === 1)) {
      a.ClientStatus = 'running';
      a.DeploymentStatus = { Healthy: true, Timestamp: '', Canary: false, ModifyIndex: 0 };
    }
    const next = await scheduleAndApply(data, job);
    expect(next.desiredUpdates.g).toMatchObject({ Canary: 0, DestructiveUpdate: 1, Stop: 2 });
    expect(names(next.plan.Place)).toEqual(['web.g[2]']);
    expect(names(live(data))).toEqual(['web.g[0]', 'web.g[1]', 'web.g[2]']);
    expect(live(data).every((a) => a.JobVersion === 1)).toBe(true);
  });

  it('more canaries than the count take names beyond it', async () => {
    const data = await runningV0(1, 3);
    const r = await schedule(data, canaryJob(1, 1, 3));
    expect(names(r.plan.Place)).toEqual(['web.g[0]', 'web.g[1]', 'web.g[2]']);
  });

  it('an update that is not destructive needs no canaries', async () => {
    const data = await runningV0(2, 1);
    const v1 = canaryJob(0, 2, 1);
    v1.Version = 1;
    v1.JobModifyIndex = 11;
    v1.Priority = 70;
    const r = await schedule(data, v1);
    expect(r.desiredUpdates.g).toMatchObject({ Canary: 0, InPlaceUpdate: 2 });
    expect(r.plan.Deployment?.TaskGroups.g.DesiredCanaries ?? 0).toBe(0);
  });
});
