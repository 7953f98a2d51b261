// A load-generator process (forked by bench/sim.mjs): how soon a write acknowledged by one server wakes a
// blocking query on another. Over and over, it opens a blocking GET /v1/job/<probe>?index=N on every server
// but one, changes the probe job through that one, and times, on this process's clock, from the write's
// acknowledgement to each other server's answer that holds the change. Several probes, each with a job of
// its own, run side by side: each write waits its turn behind the run's placements, and one probe alone
// would gather too few samples for a p99. The probe jobs are parameterized, so that changing one makes no
// evaluation and places nothing: the samples add no scheduling work to the run.
import http from 'node:http';
import { call, serveParent, wallNow } from './lib.mjs';

const urls = process.argv[2].split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const PROBES = 4;
/** A pause between a probe's samples: enough samples for a p99 without making the probes a load of their own. */
const PAUSE_MS = 20;

const probeJob = (id, seq) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  ParameterizedJob: { Payload: 'optional' },
  Meta: { seq: String(seq) },
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }],
});

const live = new Set(urls);
let running = [];
let stopping = false;
let samples = [];
let writes = [];
let failures = 0;

/**
 * Blocks on `url` from `index` until the probe job's Meta.seq is `seq` or later (a watch left over from a
 * lost sample ends with the next one); answers the wall-clock ms it saw it.
 */
async function watch(url, token, job, index, seq) {
  for (;;) {
    const res = await call(url, token, 'GET', `/v1/job/${job}?index=${index}&wait=30s`, undefined, agent);
    if (Number(res.body.Meta?.seq) >= seq) return { at: wallNow(), index: Number(res.headers['x-svc-index']) };
    index = Number(res.headers['x-svc-index'] ?? index);
  }
}

async function loop(token, job) {
  await call(urls[0], token, 'POST', '/v1/jobs', { Job: probeJob(job, 0) }, agent);
  const indexes = new Map();
  for (let seq = 1; !stopping; seq++) {
    const servers = urls.filter((u) => live.has(u));
    if (servers.length < 2) break;
    const writer = servers[seq % servers.length];
    const readers = servers.filter((u) => u !== writer);
    try {
      // Where each reader is now: the blocking queries start from there, so only a newer write wakes them.
      for (const r of readers) {
        if (!indexes.has(r)) indexes.set(r, Number((await call(r, token, 'GET', `/v1/job/${job}`, undefined, agent)).headers['x-svc-index']));
      }
      const watches = readers.map((r) => watch(r, token, job, indexes.get(r), seq));
      const sentAt = wallNow();
      const written = call(writer, token, 'POST', '/v1/jobs', { Job: probeJob(job, seq) }, agent).then(() => wallNow());
      const [ackAt, ...seen] = await Promise.all([written, ...watches]);
      writes.push(ackAt - sentAt);
      readers.forEach((r, i) => indexes.set(r, seen[i].index));
      for (const s of seen) samples.push(Math.max(0, s.at - ackAt));
    } catch {
      // A server killed under the probe: the sample is lost, and the next one starts afresh.
      failures++;
      indexes.clear();
    }
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
}

serveParent({
  /** Starts sampling in the background. */
  start({ token }) {
    stopping = false;
    samples = [];
    writes = [];
    failures = 0;
    running = Array.from({ length: PROBES }, (_, i) => loop(token, `sim-blocking-probe-${i}`));
  },
  /** Leaves a server out from now on (the bench killed it). */
  exclude({ url }) {
    live.delete(url);
  },
  /**
   * Stops after the sample under way; answers the samples (ms from acknowledgement to wake-up), each
   * write's ms until it was acknowledged, and the samples lost.
   */
  async stop() {
    stopping = true;
    await Promise.all(running);
    return { samples, writes, failures };
  },
});
