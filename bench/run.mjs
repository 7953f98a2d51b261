// `npm run bench`: CLI start-up times, request throughput of a local dev server, exec sessions over
// WebSocket, the scheduler's and the cloud logins' rates. Figures only: the targets are printed next to the measurements, never asserted,
// because they depend on the machine.
//
//   BENCH_RUNS=15  runs per start-up measurement     BENCH_N=500  requests per throughput row
//   BENCH_WRITES=200  durable writes per row         BENCH_CONCURRENCY=16
//   BENCH_NODES=1000  mock-driver nodes              BENCH_ALLOCS=50000  allocations of the big job
//   BENCH_LOGINS=2000 ec2 logins per row (iam: half)     BENCH_EXEC_SESSIONS=100  concurrent exec sessions
//   BENCH_GC_JOBS_PER_MIN=50  BENCH_GC_HOURS=6  BENCH_GC_NODES=100  garbage collection under churn (simulated clock)
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, median, startDevServer, table, timeProcess } from './lib.mjs';
import { schedulerBench } from './scheduler.mjs';
import { cloudBench } from './cloud.mjs';
import { execBench } from './exec.mjs';
import { gcChurnBench } from './gc-churn.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/svc');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const N = Number(process.env.BENCH_N ?? 500);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const NODES = Number(process.env.BENCH_NODES ?? 1000);
const ALLOCS = Number(process.env.BENCH_ALLOCS ?? 50000);
const LOGINS = Number(process.env.BENCH_LOGINS ?? 2000);
const EXEC_SESSIONS = Number(process.env.BENCH_EXEC_SESSIONS ?? 100);

if (!existsSync(path.join(REPO, 'dist/main.cjs'))) {
  console.error('dist/ is missing: run `npm run bench` (it builds first) or `npm run build`.');
  process.exit(1);
}

// A private HOME: `svc server -dev` writes the root token to ~/.svc-token, which must not touch the user's.
const home = await mkdtemp(path.join(tmpdir(), 'svc-bench-'));
const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' };
const server = await startDevServer(BIN, env);

try {
  console.log(`svc benchmark — node ${process.version}, ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown CPU'}`);
  console.log(`server: ${server.url} (-dev, lmdb in a temporary directory)\n`);

  const startup = [
    { label: 'node -e 0', args: ['-e', '0'] },
    { label: 'svc version', args: [BIN, 'version'], target: 1.3 },
    { label: 'svc --help', args: [BIN, '--help'] },
    { label: 'svc status', args: [BIN, 'status'], target: 1.8, env: { SVC_ADDR: server.url } },
  ];
  const medians = startup.map((c) => median(timeProcess(c.args, { runs: RUNS, env: { ...env, ...c.env } })));
  const base = medians[0];
  console.log(`CLI start-up: median wall time of ${RUNS} runs (after one warm-up run)\n`);
  console.log(
    table(
      ['command', 'median', 'ratio to node -e 0', 'target ratio'],
      startup.map((c, i) => [c.label, `${medians[i].toFixed(1)} ms`, `${(medians[i] / base).toFixed(2)}x`, c.target ? `${c.target}x` : '']),
    ),
  );

  const lookup = () => ({ method: 'GET', path: '/v1/auth/token/lookup-self', token: server.token, expect: 200 });
  let written = 0;
  const write = () => ({
    method: 'PUT',
    path: `/v1/sys/policies/acl/bench-${written++}`,
    token: server.token,
    body: { policy: `path "secret/bench/${written}/*" { capabilities = ["read"] }` },
    expect: 204,
  });
  // A job of 10 groups, each with a task: every registration is a new version (the count changes), so
  // each one canonicalises, validates, diffs against the previous version and writes job, version and
  // evaluation in one durable transaction. The mock driver keeps the dev node from running anything:
  // no node has it yet, so the evaluations are blocked, and the jobs are purged before the scheduler figures.
  let registered = 0;
  const registerJob = () => {
    const i = registered++;
    const groups = Array.from({ length: 10 }, (_, g) => ({
      Name: `g${g}`,
      Count: 1 + (i % 50),
      Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }],
    }));
    return { method: 'POST', path: '/v1/jobs', token: server.token, body: { Job: { ID: `bench-${i % 20}`, Type: 'service', TaskGroups: groups } }, expect: 200 };
  };
  const rows = [];
  for (const [label, n, make] of [
    ['GET auth/token/lookup-self', N, lookup],
    ['PUT sys/policies/acl/:name (durable)', WRITES, write],
    ['POST /v1/jobs, 10 groups (durable)', WRITES, registerJob],
  ]) {
    for (const concurrency of [1, CONCURRENCY]) {
      const ms = await load(server.url, n, concurrency, make);
      rows.push([label, concurrency === 1 ? 'sequential' : `${concurrency} concurrent`, n, `${ms.toFixed(0)} ms`, `${((n / ms) * 1000).toFixed(0)} req/s`]);
    }
  }
  console.log('\nRequest throughput over keep-alive connections\n');
  console.log(table(['request', 'mode', 'requests', 'total', 'rate'], rows));

  const purge = Array.from({ length: Math.min(registered, 20) }, (_, i) => ({ method: 'DELETE', path: `/v1/job/bench-${i}?purge=true`, token: server.token, expect: 200 }));
  await load(server.url, purge.length, 1, (i) => purge[i]);
  await execBench(server, { sessions: EXEC_SESSIONS });
  await schedulerBench(server, { nodes: NODES, allocs: ALLOCS, runs: RUNS });
  // A server of its own, started once the scheduler's nodes have stopped heartbeating into the first.
  await server.stop();
  await cloudBench({ bin: BIN, env, concurrency: CONCURRENCY, ec2Logins: LOGINS, iamLogins: Math.ceil(LOGINS / 2) });
  await gcChurnBench({
    jobsPerMin: Number(process.env.BENCH_GC_JOBS_PER_MIN ?? 50),
    hours: Number(process.env.BENCH_GC_HOURS ?? 6),
    nodes: Number(process.env.BENCH_GC_NODES ?? 100),
  });
} finally {
  await server.stop();
  await rm(home, { recursive: true, force: true });
}
