// A load-generator process (forked by bench/load.mjs and bench/sim.mjs): registers service jobs of
// mock-driver tasks in batches, waits for each batch's evaluations to finish, and answers each batch's
// wall time and the allocations it placed (from the jobs' summaries). argv[2] is one server URL, or several
// separated by commas: job i then goes to server i mod n, and a request that fails (the server gone, or no
// leader for the moment) is sent again to the next server, as a client with several addresses does.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, serveParent, wallNow } from './lib.mjs';

const urls = process.argv[2].split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const RETRY_ROUND_MS = 500;

const jobOf = (id, count) => ({
  ID: id,
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'web', Count: count, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }],
});

/**
 * One request to server `at` (an index into urls); on a refused connection or a 5xx answer, the same
 * request to the next server, a pause after each round of them all. Answers the response and the server
 * that gave it. A 4xx answer is the bench's own mistake: it fails at once.
 */
async function send(at, token, method, path, body) {
  for (let attempt = 1; ; attempt++) {
    try {
      return { res: await call(urls[at], token, method, path, body, agent), at };
    } catch (err) {
      if (/: HTTP 4\d\d /.test(err.message) || urls.length === 1) throw err;
      at = (at + 1) % urls.length;
      if (attempt % urls.length === 0) await new Promise((r) => setTimeout(r, RETRY_ROUND_MS));
    }
  }
}

/** Waits for the evaluation to leave "pending" with blocking queries, as Nomad's CLI monitor does. */
async function evaluated(at, token, evalId, index) {
  for (;;) {
    const { res, at: answered } = await send(at, token, 'GET', `/v1/evaluation/${evalId}?index=${index}&wait=10s`);
    if (res.body.Status !== 'pending') return;
    at = answered;
    index = Number(res.headers['x-svc-index'] ?? index);
  }
}

async function submitAndPlace(token, id, count, at) {
  const reg = await send(at, token, 'POST', '/v1/jobs', { Job: jobOf(id, count) });
  await evaluated(reg.at, token, reg.res.body.EvalID, reg.res.body.EvalCreateIndex);
  const summary = (await send(reg.at, token, 'GET', `/v1/job/${id}/summary`)).res.body.Summary.web;
  return summary.Starting + summary.Running;
}

serveParent({
  /**
   * `jobs` jobs named `${prefix}-<i>` of `count` allocations, `batch` registered at once; the next batch
   * starts when every evaluation of the last has finished. Answers [{ ms, placed, doneAt }] per batch, doneAt
   * the wall-clock ms its last job was placed.
   */
  async batches({ token, prefix, jobs, count, batch }) {
    const results = [];
    for (let first = 0; first < jobs; first += batch) {
      const ids = Array.from({ length: Math.min(batch, jobs - first) }, (_, i) => first + i);
      const start = performance.now();
      const placed = await Promise.all(ids.map((i) => submitAndPlace(token, `${prefix}-${i}`, count, i % urls.length)));
      results.push({ ms: performance.now() - start, placed: placed.reduce((a, b) => a + b, 0), doneAt: wallNow() });
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
          const i = next++;
          // Not `placed += await ...`: that reads `placed` before the wait, and the clients' sums overwrite each other.
          const n = await submitAndPlace(token, `${prefix}-${i}`, count, i % urls.length);
          placed += n;
        }
      }),
    );
    return { ms: performance.now() - start, placed };
  },
});
