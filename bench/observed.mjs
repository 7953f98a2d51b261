// What watching a server costs: placements per second and cloud logins per second with an operator's
// observers attached (bench/observer.mjs: the metrics endpoints scraped every second and an event-stream
// consumer) against the same server without them. Two kinds of consumer: one of every topic (`*`), which
// receives each placed allocation whole (about 2.4 KB of JSON), and one of the topics that change per job
// rather than per allocation (Job, Evaluation, Deployment, Node), as a deploy tool or an autoscaler reads.
// Every mode runs once untimed first (the server's code, the event thread and the observers warm up),
// then rounds go through the modes forwards, then backwards, so drift over the run (the store growing,
// V8 still optimizing) falls on every mode alike. The figures are, per round, each mode's rate and the
// server's CPU time per placement or login against the same round's without, and their medians over
// the rounds (target ≥ 0.95): the CPU time moves far less with whatever else the machine runs, since
// every process — server, load generators, observers — shares its cores, and a closed loop's rate
// swings by a third from round to round here.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBenchScript, cpuSecondsOf, median, startChild, startDevServer, table } from './lib.mjs';
import { cluster, int, rate, sum } from './load.mjs';
import { configureMount, WARMUP } from './cloud.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const MODES = [
  { label: 'without observers' },
  { label: 'with the scraper and a consumer of every topic', topics: ['*'] },
  { label: 'with the scraper and a consumer of Job, Evaluation, Deployment, Node', topics: ['Job', 'Evaluation', 'Deployment', 'Node'] },
  // BENCH_OBS_SPLIT=1: each observer alone too, to tell which of them a loss comes from.
  ...(process.env.BENCH_OBS_SPLIT === '1'
    ? [
        { label: 'with the scraper alone', topics: [] },
        { label: 'with a consumer of every topic alone', topics: ['*'], scrape: false },
      ]
    : []),
];

/** Round r's order of the modes: forwards, then backwards. */
const order = (r) => (r % 2 === 0 ? MODES : [...MODES].reverse());

/** The servers' config: the text format is what a Prometheus scrape asks for, off unless configured, as Nomad's. */
async function telemetryConfig(dir) {
  const file = path.join(dir, 'telemetry.hcl');
  await writeFile(file, 'telemetry {\n  prometheus_metrics = true\n}\n');
  return file;
}

/**
 * Runs `fn` (answering { n, ms }) with the mode's observers attached; adds the CPU time the server and
 * the observers' process took. The observers run on the same cores as the server: what they take is
 * why a rate ratio can be lower than the server's CPU ratio.
 */
async function observedRound(observer, server, mode, fn) {
  if (mode.topics) await observer.ask('start', { token: server.token, topics: mode.topics, scrape: mode.scrape ?? true });
  const cpuBefore = cpuSecondsOf(server.pid);
  const observersBefore = cpuSecondsOf(observer.pid);
  const result = await fn();
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  const observersCpu = cpuSecondsOf(observer.pid) - observersBefore;
  const seen = mode.topics ? await observer.ask('stop') : undefined;
  if (seen?.errors.length) throw new Error(`the observers failed: ${seen.errors[0]}`);
  return { ...result, rate: rate(result.n, result.ms), cpuMs: (cpu * 1000) / result.n, observersCpuMs: (observersCpu * 1000) / result.n, mode, seen };
}

/** `rounds`: per round, one result per mode. */
function summary(label, unit, rounds) {
  const base = rounds.map((round) => round.find((r) => r.mode === MODES[0]));
  const rows = [[`${label}, ${MODES[0].label} (median of ${rounds.length} rounds)`, `${int(median(base.map((r) => r.rate)))} /s, ${median(base.map((r) => r.cpuMs)).toFixed(3)} ms server CPU a ${unit}`, '']];
  for (const mode of MODES.slice(1)) {
    const mine = rounds.map((round) => round.find((r) => r.mode === mode));
    const rateRatio = median(mine.map((r, i) => r.rate / base[i].rate));
    const cpuRatio = median(mine.map((r, i) => base[i].cpuMs / r.cpuMs));
    rows.push([`  ${mode.label}`, `${int(median(mine.map((r) => r.rate)))} /s: ratio ${rateRatio.toFixed(3)}`, '≥ 0.95']);
    rows.push([`    server CPU a ${unit}`, `${median(mine.map((r) => r.cpuMs)).toFixed(3)} ms: ratio ${cpuRatio.toFixed(3)}`, '≥ 0.95']);
    rows.push([`    the observers saw`, `${int(sum(mine.map((r) => r.seen), 'scrapes'))} scrapes, ${int(sum(mine.map((r) => r.seen), 'events'))} events`, '']);
    rows.push([`    the observers' own CPU a ${unit}`, `${median(mine.map((r) => r.observersCpuMs)).toFixed(3)} ms`, '']);
  }
  return rows;
}

async function placements({ bin, env, heartbeatAt, nodes, jobs, count, clients, rounds }) {
  const c = await cluster({ bin, env, heartbeatAt, args: [`-config=${await telemetryConfig(env.HOME)}`] }, nodes);
  const observer = startChild(path.join(HERE, 'observer.mjs'), { args: [c.server.url] });
  try {
    for (const [m, mode] of MODES.entries()) {
      await observedRound(observer, c.server, mode, async () => {
        const done = await c.submitter.ask('clients', { token: c.server.token, prefix: `warm${m}`, jobs, count, clients });
        return { n: done.placed, ms: done.ms };
      });
    }
    const results = [];
    for (let r = 0; r < rounds; r++) {
      const round = [];
      results.push(round);
      for (const [m, mode] of order(r).entries()) {
        const prefix = `r${r}m${m}`;
        const result = await observedRound(observer, c.server, mode, async () => {
          const done = await c.submitter.ask('clients', { token: c.server.token, prefix, jobs, count, clients });
          return { n: done.placed, ms: done.ms };
        });
        if (result.n !== jobs * count) throw new Error(`round ${prefix} placed ${result.n} of ${jobs * count}`);
        round.push(result);
        process.stderr.write(`  placements, round ${r + 1}/${rounds} ${mode.label}: ${int(result.rate)} /s, ${result.cpuMs.toFixed(3)} ms CPU each\n`);
      }
    }
    return summary(`placements (${jobs} jobs × ${count} from ${clients} clients, ${int(nodes)} nodes)`, 'placement', results);
  } finally {
    await observer.stop();
    await c.stop();
  }
}

async function logins({ bin, env, logins: n, processes, concurrency, rounds }) {
  const { dir, script: providerScript } = await bundleBenchScript('cloud-provider');
  const documentsFile = path.join(dir, 'documents.json');
  const provider = startChild(providerScript);
  const generators = [];
  let server;
  let observer;
  try {
    const setup = await provider.ask('setup', { rsa2048: WARMUP + (MODES.length * rounds + MODES.length - 1) * n, identity: 0, file: documentsFile });
    server = await startDevServer(bin, env, { args: [`-config=${await telemetryConfig(env.HOME)}`] });
    await configureMount(server, setup);
    observer = startChild(path.join(HERE, 'observer.mjs'), { args: [server.url] });
    for (let i = 0; i < processes; i++) generators.push(startChild(path.join(HERE, 'login-load.mjs'), { args: [server.url] }));
    const each = Math.max(1, Math.floor(concurrency / processes));
    let from = 0;
    const batchOf = async (count) => {
      const share = Math.ceil(count / processes);
      await Promise.all(generators.map((g, i) => g.ask('prepare', { kind: 'rsa2048', file: documentsFile, from: from + i * share, to: from + Math.min(count, (i + 1) * share), creds: setup.creds })));
      from += count;
      const runs = await Promise.all(generators.map((g) => g.ask('run', { concurrency: each })));
      const error = runs.find((r) => r.error)?.error;
      if (error) throw new Error(`logins failed: ${error}`);
      return { n: count, ms: Math.max(...runs.map((r) => r.endedAt)) - Math.min(...runs.map((r) => r.startedAt)) };
    };
    await batchOf(WARMUP);
    for (const mode of MODES.slice(1)) await observedRound(observer, server, mode, () => batchOf(n));
    const results = [];
    for (let r = 0; r < rounds; r++) {
      const round = [];
      results.push(round);
      for (const mode of order(r)) {
        const result = await observedRound(observer, server, mode, () => batchOf(n));
        round.push(result);
        process.stderr.write(`  logins, round ${r + 1}/${rounds} ${mode.label}: ${int(result.rate)} /s, ${result.cpuMs.toFixed(3)} ms CPU each\n`);
      }
    }
    return summary(`ec2 pkcs7 (rsa2048) logins (${int(n)} a round)`, 'login', results);
  } finally {
    await observer?.stop();
    await Promise.all(generators.map((g) => g.stop()));
    await server?.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function observedBench(opts) {
  const rows = [...(await placements(opts.placements)), ...(opts.logins.logins > 0 ? await logins(opts.logins) : [])];
  console.log(`\nObserved: the same work with a 1 s metrics scraper and an event-stream consumer attached, and without (rounds alternate)\n`);
  console.log(table(['measure', 'value', 'target'], rows));
}
