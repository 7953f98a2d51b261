// The cgroups section: what a task start pays to create its cgroup with its limits, and its end to remove
// it (p50, p95), measured by bench/cgroups.ts in a process of its own. Needs root and usable cgroups.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { bundleBenchScript, percentile, table } from './lib.mjs';

export async function cgroupsBench({ runs }) {
  const { dir, script } = await bundleBenchScript('cgroups');
  try {
    const out = await new Promise((resolve, reject) =>
      execFile(process.execPath, [script], { env: { ...process.env, BENCH_CGROUP_RUNS: String(runs) } }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    const result = JSON.parse(out.trim().split('\n').pop());
    console.log(`\nTask cgroups (${runs} tasks, create with limits then remove)`);
    if (result.problem) {
      console.log(`  not measured: ${result.problem}`);
      return;
    }
    console.log(table(
      ['step', 'cgroup version', 'p50', 'p95'],
      [
        ['create with memory, cpu, cpuset and pids limits', `v${result.version}`, `${percentile(result.create, 0.5).toFixed(2)} ms`, `${percentile(result.create, 0.95).toFixed(2)} ms`],
        ['remove', `v${result.version}`, `${percentile(result.remove, 0.5).toFixed(2)} ms`, `${percentile(result.remove, 0.95).toFixed(2)} ms`],
      ],
    ));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
