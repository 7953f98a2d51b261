// ec2 login CPU of two (or more) builds side by side: `node bench/cloud-ab.mjs <bin/svc of build A> <bin/svc of B>`
// (a build of another commit: `git archive <commit> | tar -x -C <dir>`, node_modules linked in, `node
// scripts/build.mjs` there). Each build's -dev server gets its own two load generators; rounds of logins
// with never-seen rsa2048 documents alternate between the servers, so what else the machine does falls on
// each alike, and each round's figure is the server's process tree CPU per login (/proc, every thread).
// With BENCH_AB_PIN=1 the servers run on CPU 0 and the provider and the generators on CPU 1 (taskset),
// so that a login's wake-ups of those processes do not preempt the server they measure.
// Sizes: BENCH_AB_FRESH=200 (the first logins of each fresh server), BENCH_AB_WARMUP=1000,
// BENCH_AB_ROUND=1000, BENCH_AB_ROUNDS=5.
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBenchScript, cpuSecondsOfTree, median, startChild, startDevServer, table } from './lib.mjs';
import { configureMount } from './cloud.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const bins = process.argv.slice(2);
if (bins.length < 2) throw new Error('usage: node bench/cloud-ab.mjs <bin/svc> <bin/svc> [...]');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const FRESH = num('BENCH_AB_FRESH', 200);
const WARMUP = num('BENCH_AB_WARMUP', 1000);
const ROUND = num('BENCH_AB_ROUND', 1000);
const ROUNDS = num('BENCH_AB_ROUNDS', 5);
const CONCURRENCY = 5;
const pin = (cpu, pid) => process.env.BENCH_AB_PIN === '1' && execFileSync('taskset', ['-a', '-pc', String(cpu), String(pid)], { stdio: 'ignore' });

const { dir, script } = await bundleBenchScript('cloud-provider');
const documentsFile = path.join(dir, 'documents.json');
const provider = startChild(script);
const sides = [];
try {
  const setup = await provider.ask('setup', { rsa2048: bins.length * (FRESH + WARMUP + ROUND * ROUNDS), identity: 0, file: documentsFile });
  pin(1, provider.pid);
  for (const bin of bins) {
    const server = await startDevServer(bin, process.env);
    pin(0, server.pid);
    await configureMount(server, setup);
    const generators = [0, 1].map(() => startChild(path.join(HERE, 'login-load.mjs'), { args: [server.url] }));
    for (const g of generators) pin(1, g.pid);
    sides.push({ bin, server, generators, fresh: 0, warm: [] });
  }
  let from = 0;
  /** CPU µs per login of `count` logins with the next documents. */
  const logins = async (side, count) => {
    const share = Math.ceil(count / side.generators.length);
    await Promise.all(side.generators.map((g, i) => g.ask('prepare', { kind: 'rsa2048', file: documentsFile, from: from + i * share, to: from + Math.min(count, (i + 1) * share) })));
    from += count;
    const cpu = cpuSecondsOfTree(side.server.pid);
    const runs = await Promise.all(side.generators.map((g) => g.ask('run', { concurrency: CONCURRENCY })));
    const error = runs.find((r) => r.error)?.error;
    if (error) throw new Error(`${side.bin}: ec2 logins failed: ${error}`);
    return ((cpuSecondsOfTree(side.server.pid) - cpu) * 1e6) / count;
  };
  for (const side of sides) side.fresh = await logins(side, FRESH);
  for (const side of sides) await logins(side, WARMUP);
  for (let r = 0; r < ROUNDS; r++) for (const side of sides) side.warm.push(await logins(side, ROUND));
  const us = (n) => String(Math.round(n));
  console.log(`\nec2 rsa2048 logins, server CPU µs per login (process tree), rounds alternating between the builds\n`);
  console.log(table(['build', `first ${FRESH}`, `warm rounds of ${ROUND} (after ${FRESH + WARMUP})`, 'warm median'], sides.map((s) => [s.bin, us(s.fresh), s.warm.map(us).join(' '), us(median(s.warm))])));
} finally {
  for (const side of sides) {
    await Promise.all(side.generators.map((g) => g.stop()));
    await side.server.stop();
  }
  await provider.stop();
  await rm(dir, { recursive: true, force: true });
}
