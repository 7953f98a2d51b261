// The scheduler under load, each scenario against a `bin/svc server -dev` of its own, with every request
// made by load-generator processes (bench/node-fleet.mjs, job-submitter.mjs, listing-load.mjs), never by
// the server's process: C1M-shaped placement, small jobs on a full cluster, liveness under listing
// storms, and the server's memory as allocations accumulate. Targets are printed, never asserted.
import path from 'node:path';
import { residentPages } from './mapped-pages.mjs';
import { fileURLToPath } from 'node:url';
import { call, cpuSecondsOf, memoryOf, percentile, startChild, startDevServer, table, wallNow } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FILL_JOB = 10_000;
// Nomad's default heartbeat_grace: how long after a missed TTL a server may still mark a node down.
export const HEARTBEAT_GRACE_MS = 10_000;

export const int = (n) => Math.round(n).toLocaleString('en-US');
export const rate = (placed, ms) => (ms > 0 ? (placed / ms) * 1000 : 0);
export const sum = (rows, key) => rows.reduce((a, r) => a + r[key], 0);

export function progress(label) {
  let shown = 0;
  return ({ batches, of, placed }) => {
    if (batches === of || batches >= shown + Math.max(1, Math.ceil(of / 10))) {
      shown = batches;
      process.stderr.write(`  ${label}: ${batches}/${of} batches, ${int(placed)} placed\n`);
    }
  };
}

/**
 * A dev server (given `args` as well), `nodes` mock nodes heartbeating at `heartbeatAt` × their TTL in one
 * process, and a job submitter in another.
 */
export async function cluster({ bin, env, heartbeatAt, args = [] }, nodes) {
  const server = await startDevServer(bin, env, { args });
  const fleet = startChild(path.join(HERE, 'node-fleet.mjs'), { args: [server.url, String(heartbeatAt)] });
  // Batches report their progress only when a scenario asks (c.onProgress); fills report their own.
  const submitter = startChild(path.join(HERE, 'job-submitter.mjs'), { args: [server.url], onProgress: (p) => c.onProgress?.(p) });
  const c = {
    server,
    fleet,
    submitter,
    jobs: [],
    placed: 0,
    since: wallNow(),
    async stop() {
      await Promise.all([fleet.stop(), submitter.stop()]);
      await server.stop();
    },
  };
  try {
    const registered = await fleet.ask('register', { count: nodes, token: server.token });
    c.ttlMs = registered.ttlMs;
    c.nodeIds = registered.ids;
    return c;
  } catch (err) {
    await c.stop();
    throw err;
  }
}

/** Places jobs of up to FILL_JOB allocations, one at a time, until `total` allocations are placed. */
async function fillTo(c, total) {
  const start = wallNow();
  const before = c.placed;
  while (c.placed < total) {
    const count = Math.min(FILL_JOB, total - c.placed);
    const prefix = `fill${c.jobs.length}`;
    const [done] = await c.submitter.ask('batches', { token: c.server.token, prefix, jobs: 1, count, batch: 1 });
    c.jobs.push(`${prefix}-0`);
    if (done.placed === 0) throw new Error(`filling to ${total} allocations: a job of ${count} placed none (cluster full?)`);
    c.placed += done.placed;
    process.stderr.write(`  fill: ${int(c.placed)} of ${int(total)} placed\n`);
  }
  return { placed: c.placed - before, ms: wallNow() - start };
}

/** Nodes the server marked down between `since` and `until` (wall-clock ms), from each node's events. */
export async function nodesMarkedDown(c, since, until = Infinity) {
  return (await nodeDownEvents(c, since, until)).length;
}

/**
 * Of the nodes `c.nodeIds`, those the server marked down between `since` and `until` (wall-clock ms):
 * [{ id, at }] with the time of the first such event, in the order of c.nodeIds.
 */
export async function nodeDownEvents(c, since, until = Infinity) {
  const found = new Array(c.nodeIds.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < c.nodeIds.length) {
        const i = next++;
        const { body } = await call(c.server.url, c.server.token, 'GET', `/v1/node/${c.nodeIds[i]}`);
        const times = (body.Events ?? []).filter((e) => /\bdown\b/i.test(e.Message)).map((e) => Date.parse(e.Timestamp));
        const at = Math.min(...times.filter((t) => t >= since && t <= until));
        if (Number.isFinite(at)) found[i] = { id: c.nodeIds[i], at };
      }
    }),
  );
  return found.filter(Boolean);
}

async function lostAllocations(c) {
  let lost = 0;
  for (const id of c.jobs) lost += (await call(c.server.url, c.server.token, 'GET', `/v1/job/${id}/summary`)).body.Summary.web.Lost;
  return lost;
}

const mib = (m) => `${int(m)} MiB`;

/** The server's resident memory split: anonymous, and its store's file pages by table (bench/mapped-pages.mjs). */
function printResident(pid) {
  let r;
  try {
    r = residentPages(pid);
  } catch (err) {
    console.log(`(resident pages not read: ${err.message})`);
    return;
  }
  const rows = [['anonymous (heap, buffers, memory tables)', mib(r.anonMiB)], ['mapped files (node, its libraries, the store)', mib(r.fileMiB)]];
  for (const [name, m] of r.tables.slice(0, 8)) rows.push([`  data.mdb: ${name}`, mib(m)]);
  console.log(`\nWhere the server's resident memory is\n`);
  console.log(table(['part', 'resident'], rows));
}

/** (a) C1M-shaped: `jobs` jobs of `count` allocations, `batch` at a time, on `nodes` nodes. */
export async function c1mBench({ nodes, jobs, count, batch, ...common }) {
  const c = await cluster(common, nodes);
  c.onProgress = progress('c1m');
  try {
    const since = wallNow();
    const batches = await c.submitter.ask('batches', { token: c.server.token, prefix: 'c1m', jobs, count, batch });
    const tenth = Math.max(1, Math.round(batches.length / 10));
    const first = batches.slice(0, tenth);
    const last = batches.slice(-tenth);
    const totalMs = sum(batches, 'ms');
    const placed = sum(batches, 'placed');
    const firstRate = rate(sum(first, 'placed'), sum(first, 'ms'));
    const lastRate = rate(sum(last, 'placed'), sum(last, 'ms'));
    const down = await nodesMarkedDown(c, since);
    console.log(`\nC1M-shaped placement: ${int(jobs)} jobs × ${int(count)} allocations on ${int(nodes)} mock nodes, ${batch} jobs a batch (${batches.length} batches)\n`);
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          ['allocations placed', `${int(placed)} of ${int(jobs * count)}`, ''],
          ['total time (sum of batches)', `${(totalMs / 1000).toFixed(1)} s`, '≤ 120 s'],
          ['placements per second, overall', `${int(rate(placed, totalMs))} /s`, '≥ 8,300 /s'],
          [`placements per second, first 10% (${first.length} batches)`, `${int(firstRate)} /s`, ''],
          [`placements per second, last 10% (${last.length} batches)`, `${int(lastRate)} /s (${firstRate ? Math.round((lastRate / firstRate) * 100) : 0}% of first)`, '≥ 80% of first 10%'],
          ['nodes marked down during the run', `${down}`, '0'],
          ['server memory at the end (VmRSS)', mib(memoryOf(c.server.pid).rssMiB), '≤ 1,536 MiB'],
        ],
      ),
    );
    printResident(c.server.pid);
  } finally {
    await c.stop();
  }
}

/**
 * Small jobs that place part of the allocations already on the cluster before a small-jobs measurement,
 * as a server in service has placed small jobs before: the rest of the prefill comes in big jobs. V8 keeps
 * optimizing the register-schedule-commit path for the first few thousand small jobs; measured here, in
 * lockstep, 3,580/s in the first tenth of 3,000 jobs after 1,000 small jobs and over 5,000/s in every tenth
 * after 4,000.
 */
const WARM_UP_JOBS = 4000;

/**
 * (b) `jobs` small jobs of `count` allocations on `nodes` nodes already holding `prefill` allocations:
 * first `batch` at a time in lockstep (each batch waited for), then the same number again from `clients`
 * clients in a closed loop.
 */
export async function smallJobsBench({ nodes, prefill, jobs, count, batch, clients, ...common }) {
  const c = await cluster(common, nodes);
  try {
    const warmUpJobs = Math.min(WARM_UP_JOBS, Math.floor(prefill / count));
    const fill = await fillTo(c, prefill - warmUpJobs * count);
    const warm = await c.submitter.ask('clients', { token: c.server.token, prefix: 'warm', jobs: warmUpJobs, count, clients });
    c.placed += warm.placed;
    c.onProgress = progress('small jobs');
    const since = wallNow();
    const batches = await c.submitter.ask('batches', { token: c.server.token, prefix: 'small', jobs, count, batch });
    const placed = sum(batches, 'placed');
    const ms = sum(batches, 'ms');
    c.onProgress = undefined;
    const cpuBefore = cpuSecondsOf(c.server.pid);
    const loop = await c.submitter.ask('clients', { token: c.server.token, prefix: 'loop', jobs, count, clients });
    const cpu = cpuSecondsOf(c.server.pid) - cpuBefore;
    const down = await nodesMarkedDown(c, since);
    console.log(`\nSmall jobs on a full cluster: ${int(jobs)} jobs × ${count} allocations on ${int(nodes)} mock nodes already holding ${int(fill.placed + warm.placed)} allocations\n`);
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          [`prefill: ${int(fill.placed)} allocations in jobs of ≤ ${int(FILL_JOB)}`, `${(fill.ms / 1000).toFixed(1)} s, ${int(rate(fill.placed, fill.ms))} /s`, ''],
          [`  and ${int(warm.placed)} in ${int(warmUpJobs)} jobs of ${count} from ${clients} clients`, `${(warm.ms / 1000).toFixed(1)} s, ${int(rate(warm.placed, warm.ms))} /s`, ''],
          [`${batch} jobs a batch, each batch waited for: placed`, `${int(placed)} of ${int(jobs * count)}`, ''],
          ['  time (sum of batches)', `${(ms / 1000).toFixed(1)} s`, ''],
          ['  placements per second', `${int(rate(placed, ms))} /s`, '≥ 5,000 /s'],
          [`${clients} clients, each submitting its next job when the last is placed: placed`, `${int(loop.placed)} of ${int(jobs * count)}`, ''],
          ['  time', `${(loop.ms / 1000).toFixed(1)} s`, ''],
          ['  placements per second', `${int(rate(loop.placed, loop.ms))} /s`, '≥ 5,000 /s'],
          ['  server CPU, all threads (heartbeats included)', `${cpu.toFixed(1)} s, ${((cpu * 1000) / Math.max(1, loop.placed)).toFixed(3)} ms a placement`, ''],
          ['nodes marked down during the run', `${down}`, '0'],
        ],
      ),
    );
  } finally {
    await c.stop();
  }
}

/**
 * (d) the server's memory at each of `checkpoints` allocations, then (c) `listings` concurrent unpaged
 * GET /v1/allocations while `nodes` nodes heartbeat from another process. Either may run alone.
 */
export async function livenessAndMemoryBench({ nodes, checkpoints, allocs, listings, memory, liveness, ...common }) {
  const c = await cluster(common, nodes);
  try {
    if (memory) {
      const rows = [];
      const last = Math.max(...checkpoints);
      for (const at of [...checkpoints].sort((a, b) => a - b)) {
        await fillTo(c, at);
        // A moment for the writes' garbage to be collected: a figure of what is held, not of the last burst.
        await new Promise((r) => setTimeout(r, 2000));
        const m = memoryOf(c.server.pid);
        rows.push([int(c.placed), mib(m.rssMiB), mib(m.peakMiB), at === last ? '≤ 1 GiB at 100,000' : '']);
      }
      console.log(`\nServer memory (/proc/<pid>/status) as allocations accumulate on ${int(nodes)} mock nodes (jobs of ≤ ${int(FILL_JOB)})\n`);
      console.log(table(['allocations', 'VmRSS', 'VmHWM (peak)', 'target'], rows));
      printResident(c.server.pid);
    }
    if (!liveness) return;
    await fillTo(c, allocs);
    const lostBefore = await lostAllocations(c);
    await c.fleet.ask('stats', { reset: true });
    const listingLoad = startChild(path.join(HERE, 'listing-load.mjs'), { args: [c.server.url] });
    let storm;
    try {
      storm = await listingLoad.ask('storm', { token: c.server.token, path: '/v1/allocations', concurrency: listings });
    } finally {
      await listingLoad.stop();
    }
    // A node held up by the storm is marked down at most one TTL (plus the server's grace) after its last
    // heartbeat: wait that long after the storm before counting.
    await new Promise((r) => setTimeout(r, c.ttlMs + HEARTBEAT_GRACE_MS));
    const beats = await c.fleet.ask('stats', { reset: true });
    const down = await nodesMarkedDown(c, storm.startedAt);
    const downBefore = await nodesMarkedDown(c, c.since, storm.startedAt);
    const lost = (await lostAllocations(c)) - lostBefore;
    const times = storm.results.map((r) => r.ms);
    const when = common.heartbeatAt === 1 ? 'at their TTL' : `at ${common.heartbeatAt} × their TTL`;
    console.log(`\nLiveness: ${listings} concurrent unpaged GET /v1/allocations at ${int(c.placed)} allocations while ${int(nodes)} nodes heartbeat ${when} (${(c.ttlMs / 1000).toFixed(0)} s) from another process\n`);
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          ['listing storm, wall time', `${((storm.endedAt - storm.startedAt) / 1000).toFixed(1)} s`, ''],
          ['one listing: median / slowest', `${(percentile(times, 0.5) / 1000).toFixed(2)} s / ${(percentile(times, 1) / 1000).toFixed(2)} s`, ''],
          ['one listing: body', `${(storm.results[0].bytes / 2 ** 20).toFixed(1)} MiB`, ''],
          ['nodes marked down before the storm (filling)', `${downBefore} of ${int(nodes)}`, '0'],
          ['nodes wrongly marked down (storm and one TTL + grace after)', `${down} of ${int(nodes)}`, '0'],
          ['allocations lost (storm and after)', int(lost), '0'],
          ['heartbeats answered / failed', `${int(beats.beats)} / ${int(beats.failures)}`, ''],
          ['heartbeat latency p50', `${beats.p50.toFixed(1)} ms`, ''],
          ['heartbeat latency p99', `${beats.p99.toFixed(1)} ms`, '< 1,000 ms'],
          ['heartbeat latency max', `${beats.max.toFixed(1)} ms`, ''],
        ],
      ),
    );
  } finally {
    await c.stop();
  }
}
