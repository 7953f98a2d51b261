import { describe, expect, it } from 'vitest';
import { allocUsage, type ArrayData } from '../../../src/scheduler/sched/index.js';
import { makeJob, makeNodes, scheduleAndApply } from './helpers.js';

describe('placing many allocations', () => {
  it('places 5,000 allocations over 200 nodes without overcommitting a node or reusing a port', async () => {
    // 200 nodes × 1,000 MHz fit exactly 5,000 allocations of 40 MHz: packing has no slack.
    const nodes = makeNodes(200, { cpu: 1000, memoryMB: 4096, minPort: 20000, maxPort: 20099 });
    const job = makeJob({
      TaskGroups: [
        {
          Name: 'g',
          Count: 5000,
          EphemeralDisk: { SizeMB: 10 },
          Networks: [{ DynamicPorts: [{ Label: 'http' }, { Label: 'admin' }] }],
          Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 40, MemoryMB: 64 } }],
        },
      ],
    });
    const data: ArrayData = { jobs: [], allocs: [], nodes };
    const started = Date.now();
    const r = await scheduleAndApply(data, job);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.eval.FailedTGAllocs).toBeNull();
    expect(r.plan.Place).toHaveLength(5000);
    expect(new Set(r.plan.Place.map((a) => a.Name)).size).toBe(5000);

    const perNode = new Map<string, { cpu: number; memoryMB: number; ports: number[] }>();
    for (const a of r.plan.Place) {
      const u = allocUsage(a);
      const n = perNode.get(a.NodeID) ?? { cpu: 0, memoryMB: 0, ports: [] };
      n.cpu += u.cpu;
      n.memoryMB += u.memoryMB;
      n.ports.push(...u.ports);
      perNode.set(a.NodeID, n);
    }
    for (const n of perNode.values()) {
      expect(n.cpu).toBeLessThanOrEqual(1000);
      expect(n.memoryMB).toBeLessThanOrEqual(4096);
      expect(new Set(n.ports).size).toBe(n.ports.length);
      expect(n.ports.every((p) => p >= 20000 && p <= 20099)).toBe(true);
    }

    // The cluster is full: one more allocation fails on cpu everywhere, without a second search.
    const more = await scheduleAndApply(data, { ...job, TaskGroups: [{ ...job.TaskGroups[0], Count: 5002 }] });
    expect(more.plan.Place).toEqual([]);
    expect(more.eval.FailedTGAllocs!.g).toMatchObject({ NodesExhausted: 200, DimensionExhausted: { cpu: 200 }, CoalescedFailures: 1 });
  });

  it('lets other work run while it places', async () => {
    const job = makeJob({ TaskGroups: [{ Name: 'g', Count: 2000, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 1, MemoryMB: 1 } }] }] });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await scheduleAndApply({ jobs: [], allocs: [], nodes: makeNodes(50) }, job);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
