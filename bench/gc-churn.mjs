// Builds bench/gc-churn.ts (it imports the server's modules from src/) into a temporary file and runs it
// in a process of its own; prints its hourly rows as a table. `node bench/gc-churn.mjs` runs it alone.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBenchScript, table } from './lib.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function gcChurnBench({ jobsPerMin, hours, nodes }) {
  const { dir, script: out } = await bundleBenchScript('gc-churn');
  try {
    console.log(`\nGarbage collection under churn: ${jobsPerMin} batch jobs a simulated minute for ${hours} simulated hours on ${nodes} mock nodes`);
    console.log('(collected every 5 simulated minutes with Nomad\'s thresholds: dead jobs after 4 h, evaluations after 1 h)\n');
    const rows = [];
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--expose-gc', out], {
        env: { ...process.env, BENCH_GC_JOBS_PER_MIN: String(jobsPerMin), BENCH_GC_HOURS: String(hours), BENCH_GC_NODES: String(nodes) },
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: REPO,
      });
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          rows.push(JSON.parse(buf.slice(0, nl)));
          process.stderr.write(`  ${rows.at(-1)[0]} simulated after ${rows.at(-1).at(-1)}\n`);
          buf = buf.slice(nl + 1);
        }
      });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`gc churn bench exited with ${code}`))));
    });
    console.log(table(['simulated', 'jobs registered', 'jobs collected', 'jobs stored', 'allocs stored', 'evals stored', 'data file', 'heap used', 'RSS', 'wall time'], rows));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await gcChurnBench({
    jobsPerMin: Number(process.env.BENCH_GC_JOBS_PER_MIN ?? 1000),
    hours: Number(process.env.BENCH_GC_HOURS ?? 6),
    nodes: Number(process.env.BENCH_GC_NODES ?? 100),
  });
}
