// The scheduler's figures: placements per second of one big job over many mock-driver nodes, and how
// long allocation listings take once that many allocations exist. The nodes join through the node API
// and heartbeat like real ones, but run nothing: this measures the server, not task start-up.
import { performance } from 'node:perf_hooks';
import { call, median, table } from './lib.mjs';
import { mockNode } from './mock-node.mjs';

async function inParallel(items, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/** Times `n` runs of one request after a warm-up; answers the median ms. */
async function timed(n, fn) {
  await fn();
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function schedulerBench(server, { nodes: nodeCount, allocs: count, runs }) {
  const { url, token } = server;
  const nodes = Array.from({ length: nodeCount }, (_, i) => mockNode(i));
  let start = performance.now();
  let ttlMs = 10_000;
  await inParallel(nodes, 16, async (n) => {
    const { body } = await call(url, token, 'PUT', '/v1/node/register', { Node: n.node, SecretID: n.secret });
    ttlMs = body.HeartbeatTTL / 1e6;
  });
  const registerMs = performance.now() - start;

  // Heartbeat every node at a third of its TTL, spread over that time, as real nodes would.
  let stop = false;
  const heartbeats = (async () => {
    while (!stop) {
      const round = performance.now();
      await inParallel(nodes, 4, (n) => (stop ? undefined : call(url, n.secret, 'PUT', `/v1/node/${n.node.ID}/heartbeat`)));
      const rest = ttlMs / 3 - (performance.now() - round);
      if (rest > 0 && !stop) await new Promise((r) => setTimeout(r, rest));
    }
  })();

  try {
    const job = {
      ID: 'bench-big',
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'web', Count: count, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }],
    };
    start = performance.now();
    const reg = await call(url, token, 'POST', '/v1/jobs', { Job: job });
    let evaluation;
    for (;;) {
      evaluation = (await call(url, token, 'GET', `/v1/evaluation/${reg.body.EvalID}`)).body;
      if (evaluation.Status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const wallMs = performance.now() - start;
    const serverMs = (evaluation.ModifyTime - evaluation.CreateTime) / 1e6;
    const summary = (await call(url, token, 'GET', '/v1/job/bench-big/summary')).body.Summary.web;
    const placed = summary.Starting + summary.Running;

    // Listing latency with that many allocations in the store.
    const firstPage = await call(url, token, 'GET', '/v1/allocations?per_page=100');
    let deepToken;
    let cursor = firstPage.headers['x-svc-nexttoken'];
    for (let walked = 100; cursor && walked < count / 2; walked += 1000) {
      deepToken = cursor;
      cursor = (await call(url, token, 'GET', `/v1/allocations?per_page=1000&next_token=${encodeURIComponent(cursor)}`)).headers['x-svc-nexttoken'];
    }
    const prefix = firstPage.body[0].ID.slice(0, 2);
    const listing = [
      ['GET /v1/allocations?per_page=100 (first page)', () => call(url, token, 'GET', '/v1/allocations?per_page=100')],
      [`GET /v1/allocations?per_page=100 (page at ~${Math.floor(count / 2)})`, () => call(url, token, 'GET', `/v1/allocations?per_page=100&next_token=${encodeURIComponent(deepToken)}`)],
      [`GET /v1/allocations?per_page=100&prefix=${prefix}`, () => call(url, token, 'GET', `/v1/allocations?per_page=100&prefix=${prefix}`)],
      ['GET /v1/allocations?per_page=100&filter=...', () => call(url, token, 'GET', `/v1/allocations?per_page=100&filter=${encodeURIComponent('ClientStatus == "pending"')}`)],
      ['GET /v1/job/bench-big/summary', () => call(url, token, 'GET', '/v1/job/bench-big/summary')],
    ];
    const rows = [];
    for (const [label, fn] of listing) rows.push([label, `${(await timed(runs, fn)).toFixed(1)} ms`]);

    console.log(`\nScheduler: one service job of ${count} allocations over ${nodeCount} mock-driver nodes (durable writes)\n`);
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          ['node registrations', `${((nodeCount / registerMs) * 1000).toFixed(0)} /s`, ''],
          ['allocations placed', `${placed}`, `${count}`],
          ['register → evaluation complete (wall)', `${(wallMs / 1000).toFixed(2)} s`, ''],
          ['placements per second (wall)', `${((placed / wallMs) * 1000).toFixed(0)} /s`, '5000 /s'],
          ['placements per second (server: eval create → complete)', `${((placed / serverMs) * 1000).toFixed(0)} /s`, '5000 /s'],
        ],
      ),
    );
    console.log(`\nListing latency with ${placed} allocations: median of ${runs} runs\n`);
    console.log(table(['request', 'median'], rows));
  } finally {
    stop = true;
    await heartbeats;
  }
}
