// How far each hot path is from its floor: the same work measured on svc and on the least a program
// could do for it with the same libraries (bench/limits-floors.mjs writes the floors), side by side in
// one run. Repetitions alternate (svc, floor, svc, floor, ...) so that whatever else the machine does
// falls on both alike, and each figure is a median. The cost of an operation is its CPU time — the
// svc server's whole process tree (/proc/<pid>/stat of it and its children, every thread included) or
// the floor's own — and its wall time; a ratio is floor ÷ svc, per adjacent pair of repetitions, its
// median over them: 1 is as cheap as the floor, 0.5 twice its cost.
//
// With BENCH_LIMITS_PROFILE=1 each svc row's server (and the CLI's runs) is started with --cpu-prof,
// and the 15 functions with the most self time in its profiles are printed after the table: where the
// gap to the floor lies. The profiler slows what it profiles, so that run's table is not the figure.
//
// BENCH_LIMITS_ROWS=health,lookup-self runs only the rows named (version, status, health, lookup-self,
// placement, login), to measure one path before and after a change without waiting for the others.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bundleBenchScript, call, cpuSecondsOfTree, median, startChild, startDevServer, table } from './lib.mjs';
import { cluster, int, sum } from './load.mjs';
import { configureMount } from './cloud.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
const FLOORS = path.join(HERE, 'limits-floors.mjs');
const PROFILE_TOP = 15;
const BATCH = 10;
const ROWS = ['version', 'status', 'health', 'lookup-self', 'placement', 'login'];

/** The rows BENCH_LIMITS_ROWS names, or all of them; a name not among ROWS is an error, not a silent skip. */
function chosenRows() {
  const named = process.env.BENCH_LIMITS_ROWS?.split(',').map((n) => n.trim()).filter(Boolean);
  if (!named?.length) return new Set(ROWS);
  const unknown = named.filter((n) => !ROWS.includes(n));
  if (unknown.length) throw new Error(`BENCH_LIMITS_ROWS: unknown row ${unknown.join(', ')} (rows: ${ROWS.join(', ')})`);
  return new Set(named);
}

/** CPU seconds of this process's children it has waited for (cutime + cstime of /proc/self/stat). */
function reapedChildrenCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * lib.mjs's startDevServer takes the measured server's node flags from BENCH_SERVER_NODE_ARGS when it
 * spawns, which it does before its first await: `start` is called with the profiler's flags added.
 */
function profiled(dir, start) {
  if (!dir) return start();
  const before = process.env.BENCH_SERVER_NODE_ARGS;
  process.env.BENCH_SERVER_NODE_ARGS = [before, '--cpu-prof', `--cpu-prof-dir=${dir}`].filter(Boolean).join(' ');
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.BENCH_SERVER_NODE_ARGS;
    else process.env.BENCH_SERVER_NODE_ARGS = before;
  }
}

/** Runs `svc(r)` and `floor(r)` alternately, `rounds` times; each answers { ms, cpuUs } per operation. */
async function alternate(rounds, svc, floor) {
  const pairs = [];
  for (let r = 0; r < rounds; r++) pairs.push({ svc: await svc(r), floor: await floor(r) });
  return pairs;
}

/** A table row from the pairs: medians of each side, and of the per-pair ratios floor ÷ svc. */
function row(label, pairs, { target, by, rate }) {
  const side = (s) => ({ ms: median(pairs.map((p) => p[s].ms)), cpuUs: median(pairs.map((p) => p[s].cpuUs)) });
  const svc = side('svc');
  const floor = side('floor');
  const cpu = median(pairs.map((p) => p.floor.cpuUs / p.svc.cpuUs));
  const wall = median(pairs.map((p) => p.floor.ms / p.svc.ms));
  const met = (by === 'wall' ? wall : cpu) >= target;
  return [label, rate(svc.ms), svc.cpuUs.toFixed(1), rate(floor.ms), floor.cpuUs.toFixed(1), cpu.toFixed(3), wall.toFixed(3), `≥ ${target.toFixed(2)} ${by}`, met ? 'yes' : 'no'];
}

const perSecond = (ms) => `${int(1000 / ms)} /s`;

/** Wall ms and CPU µs (this process's reaped children) of one `node args...`. */
function runOnce(args, env) {
  const cpu = reapedChildrenCpu();
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr.toString().trim()}`);
  return { ms, cpuUs: (reapedChildrenCpu() - cpu) * 1e6 };
}

/**
 * A CLI command against `node -e 0`: one unmeasured run of each, then `runs` of each alternately. CPU time
 * comes in clock ticks (10 ms), so its figures are means over the runs, not medians.
 */
function cliRow(label, args, env, { runs, maxRatio }) {
  const floorArgs = ['-e', '0'];
  runOnce(args, env);
  runOnce(floorArgs, env);
  const pairs = [];
  for (let r = 0; r < runs; r++) pairs.push({ svc: runOnce(args, env), floor: runOnce(floorArgs, env) });
  const mean = (s) => sum(pairs.map((p) => p[s]), 'cpuUs') / runs;
  const wall = median(pairs.map((p) => p.floor.ms / p.svc.ms));
  const target = 1 / maxRatio;
  const ms = (s) => `${median(pairs.map((p) => p[s].ms)).toFixed(1)} ms`;
  return [label, ms('svc'), int(mean('svc')), ms('floor'), int(mean('floor')), (mean('floor') / mean('svc')).toFixed(3), wall.toFixed(3), `≥ ${target.toFixed(2)} wall (≤ ${maxRatio}×)`, wall >= target ? 'yes' : 'no'];
}

/** `runs` more runs of `args` with the profiler on, writing into `dir` (not measured). */
function profileCli(args, env, runs, dir) {
  for (let r = 0; r < runs; r++) runOnce(['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', ...args], env);
}

const location = (url, line) => (url ? `${url.replace(`file://${REPO}/`, '')}:${line + 1}` : '');

/** Now on the monotonic clock V8's profiler stamps its samples with, in µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The spans (monotonic µs) of each svc row's measured repetitions, by profile name. */
const windows = new Map();

/** Runs `fn`, noting its span as one of `name`'s measured windows. */
async function measured(name, fn) {
  const start = monotonicUs();
  try {
    return await fn();
  } finally {
    if (!windows.has(name)) windows.set(name, []);
    windows.get(name).push([start, monotonicUs()]);
  }
}

/**
 * The functions with the most self time in the .cpuprofile files of `dir`, summed over them: the samples
 * of each function name and location times its profile's mean sampling interval. With `spans`, only
 * the samples taken within them count (a server's start-up and warm-up are not what the row measures).
 * Idle time is left out; the program and garbage collector pseudo-functions stay in.
 */
function topSelfTime(dir, spans) {
  const totals = new Map();
  let all = 0;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    const interval = profile.samples.length ? (profile.endTime - profile.startTime) / profile.samples.length : 0;
    const hits = new Map();
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      at += profile.timeDeltas[i];
      if (!spans || spans.some(([from, to]) => at >= from && at <= to)) hits.set(id, (hits.get(id) ?? 0) + 1);
    });
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber } = node.callFrame;
      if (!hits.has(node.id) || functionName === '(idle)') continue;
      const key = `${functionName || '(anonymous)'}\u0000${location(url, lineNumber)}`;
      const us = hits.get(node.id) * interval;
      totals.set(key, (totals.get(key) ?? 0) + us);
      all += us;
    }
  }
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, PROFILE_TOP);
  return {
    files: files.length,
    all,
    rows: top.map(([key, us]) => {
      const [fn, where] = key.split('\u0000');
      return [fn, where, `${(us / 1000).toFixed(1)} ms`, `${((us / all) * 100).toFixed(1)}%`];
    }),
  };
}

/** `request.n` GETs through the load generator to `url`, whose server's CPU µs so far `cpuUs()` answers. */
async function httpOnce(loader, url, cpuUs, request) {
  const cpu = await cpuUs();
  const ms = await loader.ask('load', { url, ...request });
  return { ms: ms / request.n, cpuUs: ((await cpuUs()) - cpu) / request.n };
}

async function httpRow(label, { name, server, floor, loader, path: p, opts }) {
  const request = { path: p, token: server.token, n: opts.requests, connections: opts.connections };
  const svc = () => httpOnce(loader, server.url, () => cpuSecondsOfTree(server.pid) * 1e6, request);
  const bare = () => httpOnce(loader, floor.url, () => floor.ask('cpuUs'), request);
  await svc();
  await bare();
  return row(label, await alternate(opts.rounds, () => measured(name, svc), bare), { target: opts.target, by: 'cpu', rate: perSecond });
}

/**
 * The allocation as the store holds it: the API's answer without what it adds from the job, packed as the
 * store packs it (bench/packed-allocation.ts bundles the product's own packing).
 */
async function storedAllocation(server, jobId) {
  const [first] = (await call(server.url, server.token, 'GET', `/v1/job/${jobId}/allocations`)).body;
  const { Job, Resources: _resources, TaskResources: _taskResources, ...answered } = (await call(server.url, server.token, 'GET', `/v1/allocation/${first.ID}`)).body;
  const { dir, script } = await bundleBenchScript('packed-allocation');
  try {
    const { packedAllocation } = await import(script);
    return packedAllocation({ ...answered, JobModifyIndex: Job?.JobModifyIndex ?? 0 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function placementRow({ bin, env, heartbeatAt, nodes, jobs, allocs, rounds, profileDir }) {
  const c = await profiled(profileDir, () => cluster({ bin, env, heartbeatAt }, nodes));
  const floor = startChild(FLOORS);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-limits-lmdb-'));
  let record;
  try {
    await floor.ask('lmdbOpen', { dir });
    const perRound = Math.ceil(jobs / rounds);
    const svc = async (r) => {
      const count = Math.min(perRound, jobs - r * perRound);
      const cpu = cpuSecondsOfTree(c.server.pid);
      const batches = await c.submitter.ask('batches', { token: c.server.token, prefix: `limits${r}`, jobs: count, count: allocs, batch: BATCH });
      const cpuUs = (cpuSecondsOfTree(c.server.pid) - cpu) * 1e6;
      const placed = sum(batches, 'placed');
      if (placed !== count * allocs) throw new Error(`round ${r} placed ${placed} of ${count * allocs} allocations`);
      process.stderr.write(`  limits: placement round ${r + 1}/${rounds}, ${int(placed)} placed\n`);
      return { ms: sum(batches, 'ms') / placed, cpuUs: cpuUs / placed, placed };
    };
    const pairs = [];
    for (let r = 0; r < rounds && r * perRound < jobs; r++) {
      const mine = await measured('placement', () => svc(r));
      record ??= await storedAllocation(c.server, `limits${r}-0`);
      const done = await floor.ask('lmdbWrite', { record, count: mine.placed });
      pairs.push({ svc: mine, floor: { ms: done.ms / mine.placed, cpuUs: done.cpuUs / mine.placed } });
    }
    return { row: row(`placement (${int(jobs)} jobs × ${int(allocs)}, ${int(nodes)} nodes) vs lmdb put`, pairs, { target: 0.5, by: 'cpu', rate: perSecond }), recordBytes: Buffer.byteLength(JSON.stringify(record)) };
  } finally {
    await floor.ask('lmdbClose').catch(() => undefined);
    await floor.stop();
    await c.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function loginRows({ bin, env, logins, warmup, fresh, rounds, connections, profileDir }) {
  const { dir, script: providerScript } = await bundleBenchScript('cloud-provider');
  const documentsFile = path.join(dir, 'documents.json');
  const provider = startChild(providerScript);
  const floor = startChild(FLOORS);
  const generators = [];
  let server;
  try {
    const setup = await provider.ask('setup', { rsa2048: fresh + warmup + rounds * logins, identity: 0, file: documentsFile });
    server = await profiled(profileDir, () => startDevServer(bin, env));
    await configureMount(server, setup);
    for (let i = 0; i < 2; i++) generators.push(startChild(path.join(HERE, 'login-load.mjs'), { args: [server.url] }));
    const each = Math.max(1, Math.floor(connections / generators.length));
    let from = 0;
    /** The next `count` documents, each logged in once, split between the generators. */
    const svc = async (count) => {
      const share = Math.ceil(count / generators.length);
      await Promise.all(generators.map((g, i) => g.ask('prepare', { kind: 'rsa2048', file: documentsFile, from: from + i * share, to: from + Math.min(count, (i + 1) * share) })));
      from += count;
      const cpu = cpuSecondsOfTree(server.pid);
      const runs = await Promise.all(generators.map((g) => g.ask('run', { concurrency: each })));
      const cpuUs = (cpuSecondsOfTree(server.pid) - cpu) * 1e6;
      const error = runs.find((r) => r.error)?.error;
      if (error) throw new Error(`ec2 logins failed: ${error}`);
      const ms = Math.max(...runs.map((r) => r.endedAt)) - Math.min(...runs.map((r) => r.startedAt));
      return { ms: ms / count, cpuUs: cpuUs / count };
    };
    const verify = async () => {
      const done = await floor.ask('rsaVerify');
      return { ms: done.ms / done.n, cpuUs: done.cpuUs / done.n };
    };
    await floor.ask('rsaPrepare', { count: logins });
    const first = await measured('login-fresh', () => svc(fresh));
    const firstFloor = await verify();
    await svc(warmup);
    await verify();
    const pairs = await alternate(rounds, () => measured('login', () => svc(logins)), verify);
    const freshPairs = [{ svc: first, floor: firstFloor }];
    return [
      row(`ec2 rsa2048 login, first ${fresh} of a fresh server vs RSA verify`, freshPairs, { target: 0.1, by: 'cpu', rate: perSecond }),
      row(`ec2 rsa2048 login, warm (after ${int(fresh + warmup)}) vs RSA verify`, pairs, { target: 0.1, by: 'cpu', rate: perSecond }),
    ];
  } finally {
    await Promise.all(generators.map((g) => g.stop()));
    await server?.stop();
    await floor.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function limitsBench({ bin, env, runs, requests, rounds, connections, heartbeatAt, nodes, jobs, allocs, logins, loginWarmup, fresh, profile }) {
  const wanted = chosenRows();
  const profiles = profile ? mkdtempSync(path.join(tmpdir(), 'svc-limits-prof-')) : undefined;
  const profileDir = (name) => (profiles ? path.join(profiles, name) : undefined);
  const rows = [];
  const httpFloor = startChild(FLOORS);
  const loader = startChild(FLOORS);
  let notes = [];
  try {
    const floor = { url: await httpFloor.ask('httpListen'), ask: httpFloor.ask };
    if (wanted.has('version') || wanted.has('status') || wanted.has('health')) {
      const health = await profiled(profileDir('health'), () => startDevServer(bin, env));
      try {
        const cliEnv = { ...env, SVC_ADDR: health.url, SVC_TOKEN: health.token };
        for (const [name, label, maxRatio] of [
          ['version', 'svc version vs node -e 0', 1.2],
          ['status', 'svc status (-dev server) vs node -e 0', 1.5],
        ]) {
          if (!wanted.has(name)) continue;
          rows.push(cliRow(label, [bin, name], cliEnv, { runs, maxRatio }));
          if (profiles) profileCli([bin, name], cliEnv, runs, profileDir(name));
        }
        if (wanted.has('health')) {
          process.stderr.write('  limits: GET /v1/sys/health\n');
          rows.push(await httpRow('GET /v1/sys/health vs node:http', { name: 'health', server: health, floor, loader, path: '/v1/sys/health', opts: { requests, rounds, connections, target: 0.8 } }));
        }
      } finally {
        await health.stop();
      }
    }
    if (wanted.has('lookup-self')) {
      const lookup = await profiled(profileDir('lookup-self'), () => startDevServer(bin, env));
      try {
        process.stderr.write('  limits: GET /v1/auth/token/lookup-self\n');
        rows.push(await httpRow('GET /v1/auth/token/lookup-self vs node:http', { name: 'lookup-self', server: lookup, floor, loader, path: '/v1/auth/token/lookup-self', opts: { requests, rounds, connections, target: 0.5 } }));
      } finally {
        await lookup.stop();
      }
    }
    let placement;
    if (wanted.has('placement')) {
      placement = await placementRow({ bin, env, heartbeatAt, nodes, jobs, allocs, rounds, profileDir: profileDir('placement') });
      rows.push(placement.row);
    }
    if (wanted.has('login')) {
      process.stderr.write('  limits: ec2 logins\n');
      rows.push(...(await loginRows({ bin, env, logins, warmup: loginWarmup, fresh, rounds, connections, profileDir: profileDir('login') })));
    }
    const http = wanted.has('health') || wanted.has('lookup-self');
    notes = [
      (wanted.has('version') || wanted.has('status')) && `CLI: median wall time of ${runs} runs each, alternating (after one unmeasured run of each); CPU µs is the mean per run, in 10 ms clock ticks.`,
      http && `HTTP: ${int(requests)} GETs a round over ${connections} keep-alive connections (undici, one load process for both servers); floor: node:http answering 60 bytes of JSON.`,
      placement && `Placement: ${BATCH} jobs a batch, each waited for, the server's CPU including its ${int(nodes)} nodes' heartbeats; floor: the same number of allocation records (${placement.recordBytes} bytes of JSON each) put into lmdb with the store's options (binary keys, json values, lmdb's LZ4 configured but never used, the file mapped in chunks, overlappingSync, no event-turn batching, a 2^40 map; the record packed as the store packs it), 1,000 a transaction, each flushed to disk.`,
      wanted.has('login') && `Logins: ${int(logins)} a round, distinct documents, from 2 processes; floor: node:crypto RSA-2048 SHA-256 verify of ${int(logins)} distinct documents, one thread.`,
      `${rounds} rounds each, svc and floor alternating, after one unmeasured round of each (placement: none, the jobs split over the rounds); svc CPU is the server's process tree from /proc, each floor's its own process.cpuUsage.`,
    ].filter(Boolean);
  } finally {
    await loader.stop();
    await httpFloor.stop();
  }
  console.log(`\nLimits: each hot path against its floor, in one run (ratio = floor ÷ svc, per pair of adjacent repetitions, median)\n`);
  console.log(table(['path', 'svc rate', 'svc CPU µs/op', 'floor rate', 'floor CPU µs/op', 'CPU floor÷svc', 'wall floor÷svc', 'target', 'met'], rows));
  console.log('');
  for (const note of notes) console.log(note);
  if (!profiles) return;
  try {
    for (const [name, span, label] of [
      ['version', undefined, 'svc version (whole runs)'],
      ['status', undefined, 'svc status (whole runs)'],
      ['health', 'health', 'GET /v1/sys/health server, measured rounds'],
      ['lookup-self', 'lookup-self', 'GET /v1/auth/token/lookup-self server, measured rounds'],
      ['placement', 'placement', 'placement server, measured rounds'],
      ['login', 'login-fresh', `ec2 login server, its first ${fresh} logins`],
      ['login', 'login', 'ec2 login server, warm rounds'],
    ]) {
      if (!wanted.has(name)) continue;
      const top = topSelfTime(path.join(profiles, name), span && windows.get(span));
      console.log(`\nProfile, ${label}: top ${PROFILE_TOP} functions by self time (${top.files} profiles, ${(top.all / 1000).toFixed(0)} ms sampled, idle left out)\n`);
      console.log(table(['function', 'where', 'self', 'share'], top.rows));
    }
  } finally {
    await rm(profiles, { recursive: true, force: true });
  }
}
