// Mixed API writes on every server of a cluster at once, as its users make them: policies (the secrets
// side), identity entities, and jobs of count 0 (a job and its evaluation written, nothing to place), from
// `clients` concurrent clients per server for `seconds`. Different kinds land in different tables, so on
// a store whose writes lock only the tables they touch they commit side by side; the figure is writes
// answered per second over all servers.
import http from 'node:http';
import { call, wallNow } from './lib.mjs';

const KINDS = ['policy', 'entity', 'job'];

function request(kind, n) {
  if (kind === 'policy') return ['PUT', `/v1/sys/policy/mixed-${n}`, { policy: `path "secret/data/mixed/${n}" { capabilities = ["read"] }` }];
  if (kind === 'entity') return ['POST', '/v1/identity/entity', { name: `mixed-${n}`, metadata: { n: String(n) } }];
  return ['POST', '/v1/jobs', { Job: { ID: `mixed-${n}`, Type: 'service', Datacenters: ['dc1'], TaskGroups: [{ Name: 'web', Count: 0, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }] } }];
}

/** Answers { writes, seconds, byKind, failures } once every client has stopped. */
export async function mixedWrites({ urls, token, clients, seconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients * urls.length });
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0]));
  let failures = 0;
  let next = 0;
  const start = wallNow();
  const stopAt = start + seconds * 1000;
  const loops = urls.flatMap((url, server) =>
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; wallNow() < stopAt; i++) {
        const kind = KINDS[(server + c + i) % KINDS.length];
        const [method, path, body] = request(kind, next++);
        try {
          await call(url, token, method, path, body, agent);
          byKind[kind]++;
        } catch {
          failures++;
        }
      }
    }),
  );
  await Promise.all(loops);
  const elapsed = (wallNow() - start) / 1000;
  agent.destroy();
  return { writes: KINDS.reduce((a, k) => a + byKind[k], 0), seconds: elapsed, byKind, failures };
}
