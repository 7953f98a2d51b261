// What watching a server costs: placements per second and cloud logins per second with an operator's
// observers attached (bench/observer.mjs: the metrics endpoints scraped every second and an event-stream
// consumer) against the same server without them. Two kinds of consumer: one of every topic (`*`), which
// receives each placed allocation whole (about 2.4 KB of JSON), and one of the topics that change per job
// rather than per allocation (Job, Evaluation, Deployment, Node), as a deploy tool or an autoscaler reads.
// Rounds go through the modes forwards, then backwards, so drift over the run (the store growing, V8
// warming up) falls on every mode alike; the figure is each mode's median against the median without
// (target ≥ 0.95). Every process — server, load generators, observers — shares this machine's cores.
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
];

/** Round r's order of the modes: forwards, then backwards. */
const order = (r) => (r % 2 === 0 ? MODES : [...MODES].reverse());

/** The servers' config: the text format is what a Prometheus scrape asks for, off unless configured, as Nomad's. */
async function telemetryConfig(dir) {
  const file = path.join(dir, 'telemetry.hcl');
  await writeFile(file, 'telemetry {\n  prometheus_metrics = true\n}\n');
  return file;
}

async function observedRound(observer, token, mode, fn) {
  if (mode.topics) await observer.ask('start', { token, topics: mode.topics });
  const result = await fn();
  const seen = mode.topics ? await observer.ask('stop') : undefined;
  if (seen?.errors.length) throw new Error(`the observers failed: ${seen.errors[0]}`);
  return { ...result, seen };
}

function summary(label, rounds) {
  const rates = (mode) => rounds.filter((r) => r.mode === mode).map((r) => r.rate);
  const base = median(rates(MODES[0]));
  const rows = [[`${label}, ${MODES[0].label} (median of ${rates(MODES[0]).length})`, `${int(base)} /s`, '']];
  for (const mode of MODES.slice(1)) {
    const seen = rounds.filter((r) => r.mode === mode).map((r) => r.seen);
    const m = median(rates(mode));
    rows.push([`  ${mode.label}`, `${int(m)} /s, ratio ${(m / base).toFixed(3)}`, '≥ 0.95']);
    rows.push([`    the observers saw`, `${int(sum(seen, 'scrapes'))} scrapes, ${int(sum(seen, 'events'))} events`, '']);
  }
  return rows;
}

async function placements({ bin, env, heartbeatAt, nodes, jobs, count, batch, rounds }) {
  const c = await cluster({ bin, env, heartbeatAt, args: [`-config=${await telemetryConfig(env.HOME)}`] }, nodes);
  const observer = startChild(path.join(HERE, 'observer.mjs'), { args: [c.server.url] });
  try {
    // Untimed: the first jobs warm the server's code up.
    await c.submitter.ask('batches', { token: c.server.token, prefix: 'warm', jobs, count, batch });
    const results = [];
    for (let r = 0; r < rounds; r++) {
      for (const [m, mode] of order(r).entries()) {
        const prefix = `r${r}m${m}`;
        const round = await observedRound(observer, c.server.token, mode, async () => {
          const batches = await c.submitter.ask('batches', { token: c.server.token, prefix, jobs, count, batch });
          return { placed: sum(batches, 'placed'), ms: sum(batches, 'ms') };
        });
        if (round.placed !== jobs * count) throw new Error(`round ${prefix} placed ${round.placed} of ${jobs * count}`);
        results.push({ mode, rate: rate(round.placed, round.ms), seen: round.seen });
        process.stderr.write(`  placements, round ${r + 1}/${rounds} ${mode.label}: ${int(rate(round.placed, round.ms))} /s\n`);
      }
    }
    return summary(`placements (${jobs} jobs × ${count}, ${batch} a batch, ${int(nodes)} nodes)`, results);
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
    const setup = await provider.ask('setup', { rsa2048: WARMUP + MODES.length * rounds * n, identity: 0, file: documentsFile });
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
      return { ms: Math.max(...runs.map((r) => r.endedAt)) - Math.min(...runs.map((r) => r.startedAt)) };
    };
    await batchOf(WARMUP);
    const results = [];
    for (let r = 0; r < rounds; r++) {
      for (const mode of order(r)) {
        const round = await observedRound(observer, server.token, mode, () => batchOf(n));
        results.push({ mode, rate: rate(n, round.ms), seen: round.seen });
        process.stderr.write(`  logins, round ${r + 1}/${rounds} ${mode.label}: ${int(rate(n, round.ms))} /s\n`);
      }
    }
    return [...summary(`ec2 pkcs7 (rsa2048) logins (${int(n)} a round)`, results), ['  server CPU over the run', `${cpuSecondsOf(server.pid).toFixed(1)} s`, '']];
  } finally {
    await observer?.stop();
    await Promise.all(generators.map((g) => g.stop()));
    await server?.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function observedBench(opts) {
  const rows = [...(await placements(opts.placements)), ...(await logins(opts.logins))];
  console.log(`\nObserved: the same work with a 1 s metrics scraper and an event-stream consumer attached, and without (rounds alternate)\n`);
  console.log(table(['measure', 'value', 'target'], rows));
}
