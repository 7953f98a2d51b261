// The sim scenario: a cluster of `svc server`s on one PostgreSQL database (bench/pg-cluster.mjs) under a
// simulated fleet. Mock-driver nodes register and heartbeat across the servers (bench/node-fleet.mjs),
// jobs are submitted round-robin to the servers in batches (bench/job-submitter.mjs), and a third process
// times how soon a write on one server wakes a blocking query on another (bench/blocking-probe.mjs).
// Part-way through placing, the leader is killed with SIGKILL: the figures say how long until another
// server leads and until placements resume, and whether any node was wrongly marked down meanwhile (the
// fleet's nodes move to the next server when theirs is gone, as Nomad clients do). Targets are printed,
// never asserted.
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, cpuSecondsOf, cpuSecondsOfTree, percentile, startChild, table, wallNow } from './lib.mjs';
import { HEARTBEAT_GRACE_MS, int, nodeDownEvents, progress, rate, sum } from './load.mjs';
import { startPgCluster } from './pg-cluster.mjs';
import { mixedWrites } from './mixed-writes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** A run with no batch placed for this long has stalled: it stops with the servers' output rather than hang. */
const STALL_MS = 120_000;
/** After a failover, beyond one TTL and the grace: time for the last sweep of silent nodes to have run. */
const SWEEP_MARGIN_MS = 5_000;

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const millis = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'none');

/**
 * The wall-clock ms of the first allocation placed at or after `killedAt` (its CreateTime, set by the
 * leader that placed it), among the jobs of the first batches finished after the kill.
 */
async function firstPlacementAfter(server, token, killedAt, batches, { prefix, batch }) {
  const after = batches.findIndex((b) => b.doneAt >= killedAt);
  if (after < 0) return undefined;
  let first = Infinity;
  for (let b = after; b < Math.min(batches.length, after + 2); b++) {
    for (let i = b * batch; i < (b + 1) * batch; i++) {
      const { body } = await call(server.url, token, 'GET', `/v1/job/${prefix}-${i}/allocations`);
      for (const a of body) if (a.CreateTime / 1e6 >= killedAt) first = Math.min(first, a.CreateTime / 1e6);
    }
  }
  return Number.isFinite(first) ? first : undefined;
}

/** Resolves with `promise`, or rejects with `message` once `lastProgress()` is older than STALL_MS. */
async function unlessStalled(promise, lastProgress, message) {
  let timer;
  const stalled = new Promise((_, reject) => {
    timer = setInterval(() => {
      if (wallNow() - lastProgress() > STALL_MS) reject(new Error(`${message} for ${STALL_MS / 1000} s`));
    }, 1000);
  });
  try {
    return await Promise.race([promise, stalled]);
  } finally {
    clearInterval(timer);
  }
}

export async function simBench({ bin, env, servers: count, nodes, allocs, jobAllocs, batch, failoverAt, heartbeatAt, mixedSeconds, mixedClients }) {
  for (const [name, value] of Object.entries({ BENCH_SIM_SERVERS: count, BENCH_SIM_NODES: nodes, BENCH_SIM_ALLOCS: allocs, BENCH_SIM_JOB: jobAllocs, BENCH_SIM_BATCH: batch })) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, not ${value}`);
  }
  const jobs = Math.ceil(allocs / jobAllocs);
  const total = jobs * jobAllocs;
  const prefix = 'sim';
  const servers = `${count} server${count === 1 ? '' : 's'}`;
  process.stderr.write(`  sim: starting PostgreSQL and ${servers}\n`);
  const cluster = await startPgCluster({ bin, env, count });
  const { token } = cluster;
  const urls = cluster.servers.map((s) => s.url).join(',');
  const children = [];
  const child = (script, args, opts) => {
    const c = startChild(path.join(HERE, script), { args, ...opts });
    children.push(c);
    return c;
  };
  try {
    const fleet = child('node-fleet.mjs', [urls, String(heartbeatAt)]);
    const since = wallNow();
    process.stderr.write(`  sim: registering ${int(nodes)} nodes round-robin across the servers\n`);
    const registered = await fleet.ask('register', { count: nodes, token });
    const registerMs = wallNow() - since;

    let lastProgress = wallNow();
    let failover;
    const show = progress('sim');
    const probe = child('blocking-probe.mjs', [urls]);
    const submitter = child('job-submitter.mjs', [urls], {
      onProgress: (p) => {
        lastProgress = wallNow();
        show(p);
        if (!failover && failoverAt > 0 && failoverAt < 1 && p.placed >= failoverAt * total && p.batches < p.of) {
          const lead = cluster.leader();
          lead.server.cpuAtKill = cpuSecondsOf(lead.server.pid);
          lead.server.kill('SIGKILL');
          failover = { lead, killedAt: wallNow(), placed: p.placed, takeover: cluster.nextLeader(lead.term) };
          process.stderr.write(`  sim: killed the leader (${lead.server.name}, term ${lead.term}) with SIGKILL at ${int(p.placed)} placed\n`);
          void probe.ask('exclude', { url: lead.server.url });
        }
      },
    });
    // CPU while placing, of each process the run has: where the machine's time went.
    const processes = [
      ...cluster.servers.map((s) => ({ name: s.name, cpu: () => (s.alive ? cpuSecondsOf(s.pid) : s.cpuAtKill) })),
      { name: 'PostgreSQL (all its processes)', cpu: () => cpuSecondsOfTree(cluster.postgresPid) },
      { name: 'load generators (node fleet, job submitter, blocking probe)', cpu: () => [fleet, submitter, probe].reduce((a, c) => a + cpuSecondsOf(c.pid), 0) },
    ];
    const cpuBefore = processes.map((p) => p.cpu());
    await fleet.ask('stats', { reset: true });
    await probe.ask('start', { token });
    const start = wallNow();
    const batches = await unlessStalled(submitter.ask('batches', { token, prefix, jobs, count: jobAllocs, batch }), () => lastProgress, 'placing stalled: no batch finished');
    const placeMs = wallNow() - start;
    const cpu = processes.map((p, i) => p.cpu() - cpuBefore[i]);
    const wakeups = await probe.ask('stop');

    const live = cluster.servers.find((s) => s.alive);
    // After placing, mixed API writes on every live server at once (the nodes go on heartbeating).
    let mixed;
    if (mixedSeconds > 0) {
      process.stderr.write(`  sim: mixed API writes on every server for ${mixedSeconds} s\n`);
      const before = processes.slice(0, -1).map((p) => p.cpu());
      mixed = await mixedWrites({ urls: cluster.servers.filter((s) => s.alive).map((s) => s.url), token, clients: mixedClients, seconds: mixedSeconds });
      mixed.cpu = processes.slice(0, -1).reduce((a, p, i) => a + p.cpu() - before[i], 0);
    }
    const takeover = failover && (await unlessStalled(failover.takeover, () => failover.killedAt, 'failover: no other server logged that it leads'));
    const resumedAt = failover && (await firstPlacementAfter(live, token, failover.killedAt, batches, { prefix, batch }));
    // Every node's next heartbeat falls within one TTL of the kill: a new leader that marks a node down
    // for a heartbeat not yet due does so within one TTL and the grace of taking over. Without a failover,
    // that long from the start gives every node a heartbeat or more to count. Wait that long.
    const until = (takeover?.at ?? start) + (await fleet.ask('stats')).maxTtlMs + HEARTBEAT_GRACE_MS + SWEEP_MARGIN_MS;
    if (until > wallNow()) {
      process.stderr.write(`  sim: waiting ${secs(until - wallNow())} (one heartbeat TTL and the grace${failover ? ' after the failover' : ''}) before counting nodes marked down\n`);
      await new Promise((r) => setTimeout(r, until - wallNow()));
    }
    const beats = await fleet.ask('stats');
    const silent = failover && (await fleet.ask('silent', { since: failover.killedAt }));
    const down = await nodeDownEvents({ server: { url: live.url, token }, nodeIds: registered.ids }, since);

    const tenth = Math.max(1, Math.round(batches.length / 10));
    const [first, last] = [batches.slice(0, tenth), batches.slice(-tenth)];
    const placed = sum(batches, 'placed');
    const firstRate = rate(sum(first, 'placed'), sum(first, 'ms'));
    const lastRate = rate(sum(last, 'placed'), sum(last, 'ms'));
    const samples = wakeups.samples;
    const rows = [
      [`nodes registered (round-robin; followers forward to the leader)`, `${int(nodes)} in ${secs(registerMs)}, ${int(rate(nodes, registerMs))} /s`, ''],
      ['allocations placed', `${int(placed)} of ${int(total)}`, ''],
      ['time placing (wall clock, failover included)', secs(placeMs), ''],
      ['placements per second, overall', `${int(rate(placed, placeMs))} /s`, '≥ 5,000 /s'],
      [`placements per second, first 10% (${first.length} batches)`, `${int(firstRate)} /s`, ''],
      [`placements per second, last 10% (${last.length} batches)`, `${int(lastRate)} /s`, ''],
      [`heartbeats answered per second (placing and the wait after, ${secs(beats.ms)})`, `${(beats.beats / (beats.ms / 1000)).toFixed(1)} /s (${int(beats.beats)})`, ''],
      ['heartbeat latency p50 / p99 / max', `${millis(beats.p50)} / ${millis(beats.p99)} / ${millis(beats.max)}`, ''],
      ['heartbeats failed, retried at the next server', `${int(beats.failures)}`, ''],
      ['heartbeat TTL the servers give (longest)', secs(beats.maxTtlMs), ''],
      [`blocking query on another server woken by a write: p50 / p99 / max (${int(samples.length)} samples)`, `${millis(percentile(samples, 0.5))} / ${millis(percentile(samples, 0.99))} / ${millis(percentile(samples, 1))}`, ''],
      ['  the write (a job change) until acknowledged: p50 / p99', `${millis(percentile(wakeups.writes, 0.5))} / ${millis(percentile(wakeups.writes, 0.99))}`, ''],
      ['  samples lost to the killed server', `${int(wakeups.failures)}`, ''],
    ];
    if (failover) {
      rows.push(
        [`leader killed (SIGKILL) at ${int(failover.placed)} placed`, `${failover.lead.server.name}, term ${failover.lead.term}`, ''],
        ['  until another server logs that it leads', `${secs(takeover.at - failover.killedAt)} (${takeover.server.name}, term ${takeover.term})`, '< 10 s'],
        ['  until placements resume (first allocation placed after the kill)', resumedAt === undefined ? 'none found' : secs(resumedAt - failover.killedAt), '< 10 s'],
        ['  nodes with no heartbeat answered since the kill', `${int(silent)} of ${int(nodes)}`, '0'],
      );
    }
    if (mixed) {
      const kinds = Object.entries(mixed.byKind).map(([k, n]) => `${k} ${int(n)}`).join(', ');
      rows.push(
        [`mixed API writes per second, all servers (${mixedClients} clients a server, ${mixed.seconds.toFixed(1)} s)`, `${int(mixed.writes / mixed.seconds)} /s`, 'rising with servers'],
        [`  answered (${kinds}); failed`, `${int(mixed.failures)}`, '0'],
        ['  CPU per write (the servers and PostgreSQL)', `${((mixed.cpu / mixed.writes) * 1000).toFixed(2)} ms`, ''],
      );
    }
    rows.push([`nodes wrongly marked down (run${failover ? ', failover and one TTL + grace after' : ''})`, `${int(down.length)} of ${int(nodes)}`, '0']);
    if (failover && down.length > 0) {
      // Node i registered with server i mod count: was it left behind on the killed one?
      const killed = cluster.servers.indexOf(failover.lead.server);
      const index = new Map(registered.ids.map((id, i) => [id, i]));
      const after = down.map((d) => d.at - takeover.at);
      rows.push(
        ['  of them registered with the killed server', int(down.filter((d) => index.get(d.id) % count === killed).length), ''],
        ['  marked down, after the takeover', `${secs(Math.min(...after))} to ${secs(Math.max(...after))}`, ''],
      );
    }
    rows.push(
      [`CPU while placing (${secs(placeMs)} of wall clock, ${cpus().length} CPUs)`, '', ''],
      ...processes.map((p, i) => [`  ${p.name}${failover?.lead.server.name === p.name ? ' (until killed)' : ''}`, secs(cpu[i] * 1000), '']),
    );
    console.log(
      `\nsim: ${int(jobs)} jobs × ${int(jobAllocs)} allocations, ${batch} jobs a batch round-robin over ${servers} on one PostgreSQL, ${int(nodes)} mock nodes heartbeating across them${failover ? `, the leader killed at ${Math.round(failoverAt * 100)}%` : ''}\n`,
    );
    console.log(table(['measure', 'value', 'target'], rows));
  } catch (err) {
    for (const s of cluster.servers) process.stderr.write(`\n--- ${s.name} (${s.url}) output, last part:\n${s.output}\n`);
    throw err;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await cluster.stop();
  }
}
