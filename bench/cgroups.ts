// Bundled and run by bench/cgroups.mjs: the cost a task start and a task's end pay for its cgroup, on this
// machine's real hierarchy, through the node's own cgroup layer (under the node's parent, as a task's
// would be; each one removed again). Prints one JSON line.
import { NodeCgroups, DEFAULT_CGROUP_PARENT, DEFAULT_PIDS_LIMIT } from '../src/client/cgroups/node-cgroups.js';

const runs = Number(process.env.BENCH_CGROUP_RUNS ?? 200);
const cgroups = new NodeCgroups({ parent: DEFAULT_CGROUP_PARENT, pidsLimit: DEFAULT_PIDS_LIMIT, memoryOversubscription: false });
if (!cgroups.hierarchy) {
  console.log(JSON.stringify({ problem: cgroups.problem ?? 'no cgroups' }));
} else {
  const limits = cgroups.limitsFor({ cpuShares: 500, memoryMB: 256, memoryMaxMB: 0, cores: [], coreCount: 0 });
  const create: number[] = [];
  const remove: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    const cg = cgroups.create(`bench-${process.pid}-${i}.task`, limits, []);
    create.push(performance.now() - start);
    start = performance.now();
    await cgroups.remove(cg);
    remove.push(performance.now() - start);
  }
  console.log(JSON.stringify({ version: cgroups.detection.version, create, remove }));
}
