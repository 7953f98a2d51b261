// A load-generator process (forked by bench/load.mjs): mock-driver nodes that join through the node API and
// heartbeat as Nomad clients do — the next heartbeat one TTL after the server answered the last (the
// server, as Nomad's, is the one to add a grace period; argv[3] < 1 beats earlier). It records each heartbeat's latency, so the
// liveness figures come from a process the server's event loop cannot hold up.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, percentile, serveParent } from './lib.mjs';
import { mockNode } from './mock-node.mjs';

const url = process.argv[2];
const beatAt = Number(process.argv[3] ?? 1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const nodes = [];
let latencies = [];
let failures = 0;
let ttlMs = 0;

const schedule = (n, ttl) => setTimeout(() => beat(n), ttl * beatAt);

async function beat(n) {
  const start = performance.now();
  try {
    const { body } = await call(url, n.secret, 'PUT', `/v1/node/${n.node.ID}/heartbeat`, undefined, agent);
    latencies.push(performance.now() - start);
    ttlMs = body.HeartbeatTTL / 1e6;
    schedule(n, ttlMs);
  } catch {
    // A refused or failed heartbeat is retried soon, as a client retries.
    failures++;
    setTimeout(() => beat(n), 1000);
  }
}

serveParent({
  /** Registers `count` more nodes, 16 at a time, each then heartbeating at its TTL; answers the TTL. */
  async register({ count, token }) {
    const fresh = Array.from({ length: count }, (_, i) => mockNode(nodes.length + i));
    nodes.push(...fresh);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < fresh.length) {
          const n = fresh[next++];
          const { body } = await call(url, token, 'PUT', '/v1/node/register', { Node: n.node, SecretID: n.secret }, agent);
          ttlMs = body.HeartbeatTTL / 1e6;
          schedule(n, ttlMs);
        }
      }),
    );
    return { nodes: nodes.length, ttlMs, ids: nodes.map((n) => n.node.ID) };
  },
  /** Heartbeats answered, their latency p50/p99/max (ms) and failures since the last reset. */
  stats({ reset } = {}) {
    const answer = { beats: latencies.length, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: percentile(latencies, 1), failures, ttlMs };
    if (reset) {
      latencies = [];
      failures = 0;
    }
    return answer;
  },
});
