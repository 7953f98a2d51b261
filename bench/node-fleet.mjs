// A load-generator process (forked by bench/load.mjs and bench/sim.mjs): mock-driver nodes that join
// through the node API and heartbeat as Nomad clients do — the next heartbeat one TTL after the server
// answered the last (the server, as Nomad's, is the one to add a grace period; argv[3] < 1 beats earlier).
// argv[2] is one server URL, or several separated by commas: node i then registers with server i mod n,
// and a heartbeat that fails is sent at once to the next server, as a Nomad client rotates through its
// servers; a node that has failed at every server in a row waits a second before it tries again. It
// records each heartbeat's latency, so the liveness figures come from a process the server's event loop
// cannot hold up.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, percentile, serveParent, wallNow } from './lib.mjs';
import { mockNode } from './mock-node.mjs';

const urls = process.argv[2].split(',');
const beatAt = Number(process.argv[3] ?? 1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const RETRY_ROUND_MS = 1000;
const nodes = [];
let latencies = [];
let failures = 0;
let failovers = 0;
let since = wallNow();
let ttlMs = 0;
let maxTtlMs = 0;

const schedule = (n, ttl) => setTimeout(() => beat(n), ttl * beatAt);

function answered(body) {
  ttlMs = body.HeartbeatTTL / 1e6;
  maxTtlMs = Math.max(maxTtlMs, ttlMs);
}

async function beat(n) {
  const start = performance.now();
  try {
    const { body } = await call(urls[n.server], n.secret, 'PUT', `/v1/node/${n.node.ID}/heartbeat`, undefined, agent);
    latencies.push(performance.now() - start);
    n.misses = 0;
    n.answeredAt = wallNow();
    answered(body);
    schedule(n, ttlMs);
  } catch {
    failures++;
    n.misses++;
    if (urls.length > 1) {
      n.server = (n.server + 1) % urls.length;
      failovers++;
    }
    // Every server refused in a row (no leader yet, say): a pause, as a client backs off.
    if (n.misses % urls.length === 0) setTimeout(() => beat(n), RETRY_ROUND_MS);
    else void beat(n);
  }
}

serveParent({
  /** Registers `count` more nodes, 16 at a time, each then heartbeating at its TTL; answers the TTL. */
  async register({ count, token }) {
    const fresh = Array.from({ length: count }, (_, i) => ({ ...mockNode(nodes.length + i), server: (nodes.length + i) % urls.length, misses: 0 }));
    nodes.push(...fresh);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < fresh.length) {
          const n = fresh[next++];
          const { body } = await call(urls[n.server], token, 'PUT', '/v1/node/register', { Node: n.node, SecretID: n.secret }, agent);
          answered(body);
          schedule(n, ttlMs);
        }
      }),
    );
    return { nodes: nodes.length, ttlMs, ids: nodes.map((n) => n.node.ID) };
  },
  /** How many nodes have had no heartbeat answered since `since` (wall-clock ms). */
  silent({ since }) {
    return nodes.filter((n) => !(n.answeredAt >= since)).length;
  },
  /**
   * Heartbeats answered, their latency p50/p99/max (ms), failed attempts and those retried at another
   * server since the last reset (and the wall-clock ms it spans); the longest TTL a server has given.
   */
  stats({ reset } = {}) {
    const now = wallNow();
    const answer = { beats: latencies.length, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: percentile(latencies, 1), failures, failovers, ms: now - since, ttlMs, maxTtlMs };
    if (reset) {
      latencies = [];
      failures = 0;
      failovers = 0;
      since = now;
    }
    return answer;
  },
});
