// `npm run bench`: CLI start-up times, request throughput of a local dev server, exec sessions over
// WebSocket, the scheduler's rates and behaviour under load, cloud logins, and garbage collection under
// churn. Figures only: the targets are printed next to the measurements, never asserted, because they
// depend on the machine (and on whatever else it runs).
//
// The load scenarios each start servers of their own (a `bin/svc server -dev`; sim: a cluster on PostgreSQL)
// and generate every request from other processes (forked load generators), never from a server's:
//   c1m         1,000 jobs × 1,000 allocations on 5,000 mock nodes, 10 jobs a batch, each batch waited for:
//               overall placements/s, the first and last 10% of batches, total time (target ≤ 120 s,
//               ≥ 8,300/s, last 10% ≥ 80% of the first)
//   small-jobs  300 jobs × 10 allocations on 5,000 nodes already holding 100,000, in lockstep batches of 10,
//               and again from 30 clients in a closed loop (target ≥ 5,000/s); 40,000 of the 100,000 are
//               placed first as 4,000 small jobs, which warms the server up as a server in service is
//   liveness    64 concurrent unpaged GET /v1/allocations at 100,000 allocations while 1,000 nodes
//               heartbeat at their TTL: nodes wrongly marked down (target 0), heartbeat p50/p99 (< 1 s)
//   memory      server VmRSS at 0, 10,000 and 100,000 allocations (target ≤ 1 GiB at 100,000)
//   sim         3 servers on one PostgreSQL (a private instance, as the tests start), 10,000 mock nodes
//               registered round-robin and heartbeating across them, 100 jobs × 1,000 allocations submitted
//               round-robin, 5 jobs a batch; the leader killed with SIGKILL at 50% placed: placements/s
//               (target ≥ 5,000/s), heartbeats answered/s and their p50/p99, p99 wake-up of a blocking query
//               on one server by a write on another, time until another server leads and until placements
//               resume (target < 10 s), nodes wrongly marked down (target 0; the nodes move to the next
//               server when theirs is gone, as Nomad clients do)
//   cloud       ec2 logins, each with a document the server has never seen (a distinct simulated
//               instance per login, the simulator in a process of its own), from several processes:
//               rsa2048 PKCS#7 (target ≥ 1,500/s), identity + signature (its server started with
//               -cloud-allow-sha1, which that flow needs), and iam
//   stats       p50/p99 latency of an allocation's resource usage (one running raw_exec task) and of the
//               host's, from the dev server's own node
//   cgroups     p50/p95 of creating a task's cgroup with its limits and of removing it, on this machine's
//               real hierarchy (root and usable cgroups needed; otherwise it says why it measured nothing)
//   kv-rerender p50/p95 of the time from a kv put to a running raw_exec task's template file showing the
//               new value (read through the alloc fs API), for a KV version 2 and a version 1 secret (the
//               node's blocking reads) and for one the node polls every 5 s, on a dev server of its own
//   observed    placements/s (small jobs from 30 clients on 1,000 mock nodes) and ec2 logins/s with a 1 s scraper of
//               /v1/metrics and /v1/sys/metrics and an event-stream consumer attached (of every topic; of
//               Job, Evaluation, Deployment, Node), against without, in alternating rounds: the ratio of the
//               medians, and of the server's CPU time per placement and login (target ≥ 0.95)
//   ui          the web UI's first page: its script, preloaded chunks and styles, gzipped (target ≤ 300 KB),
//               the time to the first painted jobs list with 1,000 jobs on the server, in headless Chromium,
//               and the requests a job's page makes while it sits open for a minute
//   limits      each hot path beside its floor in the same run, svc and floor alternating, medians of the
//               CPU time per operation (the server's process tree; the floor's own) and of wall time, ratio
//               floor ÷ svc: svc version and svc status vs node -e 0 (wall: ≤ 1.2×, ≤ 1.5×); GET
//               sys/health and auth/token/lookup-self vs a bare node:http server (CPU: ≥ 0.8, ≥ 0.5);
//               placement vs lmdb writing the same allocation records durably (≥ 0.5); ec2 rsa2048
//               logins, fresh and warm, vs node:crypto RSA-2048 verify (≥ 0.1). The floors are in
//               bench/limits-floors.mjs
// and the earlier sections: startup, throughput, exec, scheduler (one big job), gc.
//
//   npm run bench -- c1m memory  run only these sections (names above); so does BENCH_ONLY=c1m,memory
//   BENCH_RUNS=15  runs per start-up measurement     BENCH_N=500  requests per throughput row
//   BENCH_WRITES=200  durable writes per row         BENCH_CONCURRENCY=16
//   BENCH_NODES=1000  mock-driver nodes              BENCH_ALLOCS=50000  allocations of the big job
//   BENCH_EXEC_SESSIONS=100  concurrent exec sessions   BENCH_STATS_REQUESTS=200  requests per stats row
//   BENCH_CGROUP_RUNS=200  task cgroups created and removed
//   BENCH_KV_CHANGES=20  BENCH_KV_POLL_CHANGES=5  kv-rerender's puts (each watched secret, the polled one)
//   BENCH_C1M_NODES=5000  BENCH_C1M_JOBS=1000  BENCH_C1M_ALLOCS=1000 (per job)  BENCH_C1M_BATCH=10
//   BENCH_SMALL_NODES=5000  BENCH_SMALL_PREFILL=100000  BENCH_SMALL_JOBS=300  BENCH_SMALL_ALLOCS=10  BENCH_SMALL_BATCH=10
//   BENCH_SMALL_CLIENTS=30
//   BENCH_LIVE_NODES=1000  BENCH_LIVE_ALLOCS=100000  BENCH_LIVE_LISTINGS=64  BENCH_MEM_ALLOCS=0,10000,100000
//   BENCH_SIM_SERVERS=3  BENCH_SIM_NODES=10000  BENCH_SIM_ALLOCS=100000  BENCH_SIM_JOB=1000 (allocations a job)
//   BENCH_SIM_BATCH=5  BENCH_SIM_FAILOVER_AT=0.5  (fraction placed when the leader is killed; 0: no kill)
//   BENCH_SIM_MIXED_S=10  BENCH_SIM_MIXED_CLIENTS=8  (after placing: policies, entities and jobs of count 0
//               written by that many clients on every server for that long; 0 s: none)
//   BENCH_HEARTBEAT_AT=1  when the load scenarios' nodes heartbeat, as a fraction of their TTL (1: at the
//                         TTL, as Nomad clients do, relying on the server's grace period)
//   BENCH_LOGINS=5000  logins per cloud row (distinct instances)  BENCH_LOGIN_PROCS=2  load processes
//   BENCH_OBS_NODES=1000  BENCH_OBS_JOBS=1000 BENCH_OBS_ALLOCS=10  BENCH_OBS_CLIENTS=30  BENCH_OBS_ROUNDS=4
//   BENCH_OBS_LOGINS=1500  (logins a round; 0 measures placements only)  BENCH_OBS_SPLIT=1  (each observer alone too)
//   BENCH_UI_JOBS=1000  BENCH_UI_RUNS=6  BENCH_UI_IDLE_S=60  jobs on the ui section's server, page loads
//                         measured, seconds a job's page is left open
//   BENCH_GC_JOBS_PER_MIN=50  BENCH_GC_HOURS=6  BENCH_GC_NODES=100  garbage collection under churn (simulated clock)
//   BENCH_LIMITS_REQUESTS=10000  GETs a limits round   BENCH_LIMITS_ROUNDS=5  rounds of each limits row
//   BENCH_LIMITS_NODES=500  BENCH_LIMITS_JOBS=100  BENCH_LIMITS_ALLOCS=1000 (per job)  limits placement
//   BENCH_LIMITS_LOGINS=1000 (a round)  BENCH_LIMITS_FRESH=200  BENCH_LIMITS_LOGIN_WARMUP=1000  limits logins
//   BENCH_LIMITS_PROFILE=1  limits: run the svc servers with --cpu-prof, print each one's top 15 by self time
//   BENCH_LIMITS_ROWS=health,lookup-self  limits: only these rows (version, status, health, lookup-self, placement, login)
//   BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'  node flags for the measured server processes
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
import { c1mBench, livenessAndMemoryBench, smallJobsBench } from './load.mjs';
import { simBench } from './sim.mjs';
import { statsBench } from './stats.mjs';
import { cgroupsBench } from './cgroups.mjs';
import { kvRerenderBench } from './kv-rerender.mjs';
import { uiBench } from './ui.mjs';
import { observedBench } from './observed.mjs';
import { limitsBench } from './limits.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/svc');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const N = Number(process.env.BENCH_N ?? 500);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const NODES = Number(process.env.BENCH_NODES ?? 1000);
const ALLOCS = Number(process.env.BENCH_ALLOCS ?? 50000);
const LOGINS = Number(process.env.BENCH_LOGINS ?? 5000);
const EXEC_SESSIONS = Number(process.env.BENCH_EXEC_SESSIONS ?? 100);
const num = (name, fallback) => Number(process.env[name] ?? fallback);

const SECTIONS = ['startup', 'throughput', 'exec', 'stats', 'cgroups', 'kv-rerender', 'scheduler', 'c1m', 'small-jobs', 'liveness', 'memory', 'sim', 'cloud', 'ui', 'observed', 'limits', 'gc'];
const named = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? '').split(',')].map((s) => s.trim()).filter(Boolean);
const only = named.length ? new Set(named) : undefined;
const unknown = named.filter((s) => !SECTIONS.includes(s));
if (unknown.length) {
  console.error(`unknown bench section ${unknown.join(', ')} (sections: ${SECTIONS.join(', ')})`);
  process.exit(2);
}
const want = (section) => !only || only.has(section);

if (!existsSync(path.join(REPO, 'dist/main.cjs'))) {
  console.error('dist/ is missing: run `npm run bench` (it builds first) or `npm run build`.');
  process.exit(1);
}

// A private HOME: `svc server -dev` writes the root token to ~/.svc-token, which must not touch the user's.
const home = await mkdtemp(path.join(tmpdir(), 'svc-bench-'));
const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' };
// One dev server for the earlier sections; the load scenarios and the cloud logins start their own.
const server = ['startup', 'throughput', 'exec', 'stats', 'scheduler'].some(want) ? await startDevServer(BIN, env) : undefined;

try {
  console.log(`svc benchmark — node ${process.version}, ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown CPU'}`);
  if (server) console.log(`server: ${server.url} (-dev, lmdb in a temporary directory)\n`);
  if (want('startup')) {
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
  }
  if (want('throughput')) {
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
    // KV version 2 on the dev server's secret/: each write a new version of one of 50 keys (sealed, durable).
    let kvWritten = 0;
    const kvWrite = () => ({ method: 'PUT', path: `/v1/secret/data/bench-${kvWritten++ % 50}`, token: server.token, body: { data: { password: `p-${kvWritten}` } }, expect: 200 });
    let kvRead = 0;
    const kvGet = () => ({ method: 'GET', path: `/v1/secret/data/bench-${kvRead++ % 50}`, token: server.token, expect: 200 });
    const rows = [];
    for (const [label, n, make] of [
      ['GET auth/token/lookup-self', N, lookup],
      ['PUT sys/policies/acl/:name (durable)', WRITES, write],
      ['PUT secret/data/:key, KV v2 (durable)', WRITES, kvWrite],
      ['GET secret/data/:key, KV v2', N, kvGet],
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
  }
  if (want('exec')) await execBench(server, { sessions: EXEC_SESSIONS });
  if (want('stats')) await statsBench(server, { requests: num('BENCH_STATS_REQUESTS', 200) });
  if (want('cgroups')) await cgroupsBench({ runs: num('BENCH_CGROUP_RUNS', 200) });
  if (want('kv-rerender')) await kvRerenderBench({ bin: BIN, env, changes: num('BENCH_KV_CHANGES', 20), pollChanges: num('BENCH_KV_POLL_CHANGES', 5) });
  if (want('scheduler')) await schedulerBench(server, { nodes: NODES, allocs: ALLOCS, runs: RUNS });
  // The sections below start servers of their own, once this one's nodes have stopped heartbeating into it.
  await server?.stop();
  const loadCommon = { bin: BIN, env, heartbeatAt: num('BENCH_HEARTBEAT_AT', 1) };
  if (want('c1m')) {
    await c1mBench({
      ...loadCommon,
      nodes: num('BENCH_C1M_NODES', 5000),
      jobs: num('BENCH_C1M_JOBS', 1000),
      count: num('BENCH_C1M_ALLOCS', 1000),
      batch: num('BENCH_C1M_BATCH', 10),
    });
  }
  if (want('small-jobs')) {
    await smallJobsBench({
      ...loadCommon,
      nodes: num('BENCH_SMALL_NODES', 5000),
      prefill: num('BENCH_SMALL_PREFILL', 100_000),
      jobs: num('BENCH_SMALL_JOBS', 300),
      count: num('BENCH_SMALL_ALLOCS', 10),
      batch: num('BENCH_SMALL_BATCH', 10),
      clients: num('BENCH_SMALL_CLIENTS', 30),
    });
  }
  if (want('liveness') || want('memory')) {
    await livenessAndMemoryBench({
      ...loadCommon,
      nodes: num('BENCH_LIVE_NODES', 1000),
      allocs: num('BENCH_LIVE_ALLOCS', 100_000),
      listings: num('BENCH_LIVE_LISTINGS', 64),
      checkpoints: (process.env.BENCH_MEM_ALLOCS ?? '0,10000,100000').split(',').map(Number),
      memory: want('memory'),
      liveness: want('liveness'),
    });
  }
  if (want('sim')) {
    await simBench({
      ...loadCommon,
      servers: num('BENCH_SIM_SERVERS', 3),
      nodes: num('BENCH_SIM_NODES', 10_000),
      allocs: num('BENCH_SIM_ALLOCS', 100_000),
      jobAllocs: num('BENCH_SIM_JOB', 1000),
      batch: num('BENCH_SIM_BATCH', 5),
      failoverAt: num('BENCH_SIM_FAILOVER_AT', 0.5),
      mixedSeconds: num('BENCH_SIM_MIXED_S', 10),
      mixedClients: num('BENCH_SIM_MIXED_CLIENTS', 8),
    });
  }
  if (want('cloud')) await cloudBench({ bin: BIN, env, concurrency: CONCURRENCY, processes: num('BENCH_LOGIN_PROCS', 2), logins: LOGINS });
  if (want('ui')) await uiBench({ bin: BIN, env, jobs: num('BENCH_UI_JOBS', 1000), runs: num('BENCH_UI_RUNS', 6), idleSeconds: num('BENCH_UI_IDLE_S', 60) });
  if (want('observed')) {
    const rounds = num('BENCH_OBS_ROUNDS', 4);
    await observedBench({
      placements: { ...loadCommon, nodes: num('BENCH_OBS_NODES', 1000), jobs: num('BENCH_OBS_JOBS', 1000), count: num('BENCH_OBS_ALLOCS', 10), clients: num('BENCH_OBS_CLIENTS', 30), rounds },
      logins: { bin: BIN, env, logins: num('BENCH_OBS_LOGINS', 1500), processes: num('BENCH_LOGIN_PROCS', 2), concurrency: CONCURRENCY, rounds },
    });
  }
  if (want('limits')) {
    await limitsBench({
      bin: BIN,
      env,
      runs: RUNS,
      connections: CONCURRENCY,
      heartbeatAt: loadCommon.heartbeatAt,
      requests: num('BENCH_LIMITS_REQUESTS', 10_000),
      rounds: num('BENCH_LIMITS_ROUNDS', 5),
      nodes: num('BENCH_LIMITS_NODES', 500),
      jobs: num('BENCH_LIMITS_JOBS', 100),
      allocs: num('BENCH_LIMITS_ALLOCS', 1000),
      logins: num('BENCH_LIMITS_LOGINS', 1000),
      fresh: num('BENCH_LIMITS_FRESH', 200),
      loginWarmup: num('BENCH_LIMITS_LOGIN_WARMUP', 1000),
      profile: process.env.BENCH_LIMITS_PROFILE === '1',
    });
  }
  if (want('gc')) {
    await gcChurnBench({
      jobsPerMin: num('BENCH_GC_JOBS_PER_MIN', 50),
      hours: num('BENCH_GC_HOURS', 6),
      nodes: num('BENCH_GC_NODES', 100),
    });
  }
} finally {
  await server?.stop();
  await rm(home, { recursive: true, force: true });
}
