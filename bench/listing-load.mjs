// A load-generator process (forked by bench/load.mjs): many concurrent unpaged listings, each over a
// connection of its own. Bodies are counted and dropped as they arrive, so 64 listings of 100k
// allocations do not have to fit in this process's memory.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { serveParent, wallNow } from './lib.mjs';

const url = process.argv[2];

function drain(path, token, agent) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, url), { headers: { 'x-svc-token': token }, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve({ ms: performance.now() - start, bytes }) : reject(new Error(`GET ${path}: HTTP ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

serveParent({
  /** `concurrency` GETs of `path` at once; answers each one's ms and bytes, and the storm's wall-clock span. */
  async storm({ token, path, concurrency }) {
    const agent = new http.Agent({ keepAlive: false, maxSockets: concurrency });
    const startedAt = wallNow();
    const results = await Promise.all(Array.from({ length: concurrency }, () => drain(path, token, agent)));
    agent.destroy();
    return { startedAt, endedAt: wallNow(), results };
  },
});
