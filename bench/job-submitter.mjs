// A load-generator process (forked by bench/load.mjs): registers service jobs of mock-driver tasks in
// batches, waits for each batch's evaluations to finish, and answers each batch's wall time and the
// allocations it placed (from the jobs' summaries).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, serveParent } from './lib.mjs';

const url = process.argv[2];
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

const jobOf = (id, count) => ({
  ID: id,
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'web', Count: count, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }],
});

/** Waits for the evaluation to leave "pending" with blocking queries, as Nomad's CLI monitor does. */
async function evaluated(token, evalId, index) {
  for (;;) {
    const res = await call(url, token, 'GET', `/v1/evaluation/${evalId}?index=${index}&wait=10s`, undefined, agent);
    if (res.body.Status !== 'pending') return;
    index = Number(res.headers['x-svc-index'] ?? index);
  }
}

async function submitAndPlace(token, id, count) {
  const reg = await call(url, token, 'POST', '/v1/jobs', { Job: jobOf(id, count) }, agent);
  await evaluated(token, reg.body.EvalID, reg.body.EvalCreateIndex);
  const summary = (await call(url, token, 'GET', `/v1/job/${id}/summary`, undefined, agent)).body.Summary.web;
  return summary.Starting + summary.Running;
}

serveParent({
  /**
   * `jobs` jobs named `${prefix}-<i>` of `count` allocations, `batch` registered at once; the next batch
   * starts when every evaluation of the last has finished. Answers [{ ms, placed }] per batch.
   */
  async batches({ token, prefix, jobs, count, batch }) {
    const results = [];
    for (let first = 0; first < jobs; first += batch) {
      const ids = Array.from({ length: Math.min(batch, jobs - first) }, (_, i) => `${prefix}-${first + i}`);
      const start = performance.now();
      const placed = await Promise.all(ids.map((id) => submitAndPlace(token, id, count)));
      results.push({ ms: performance.now() - start, placed: placed.reduce((a, b) => a + b, 0) });
      process.send({ progress: { batches: results.length, of: Math.ceil(jobs / batch), placed: results.reduce((a, r) => a + r.placed, 0) } });
    }
    return results;
  },
  /**
   * `jobs` jobs named `${prefix}-<i>` of `count` allocations from `clients` clients, each registering its
   * next job as soon as its last one is placed (a closed loop: the server, not a lockstep, sets the pace).
   * Answers { ms, placed }.
   */
  async clients({ token, prefix, jobs, count, clients }) {
    let next = 0;
    let placed = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < jobs) {
          const n = await submitAndPlace(token, `${prefix}-${next++}`, count);
          placed += n;
        }
      }),
    );
    return { ms: performance.now() - start, placed };
  },
});
