// The stats section: latency of GET /v1/client/allocation/:alloc_id/stats (p50, p99) with one running
// raw_exec task, and of GET /v1/client/stats, both answered by the dev server's own node. Each reading
// walks the task's cgroup files (or its process tree in /proc where the node has no cgroups).
import http from 'node:http';
import { call, median, percentile, table } from './lib.mjs';

const JOB = 'bench-stats';

export async function statsBench(server, { requests }) {
  const { url, token } = server;
  const job = {
    ID: JOB,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 'sleep', Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['3600'] }, KillTimeout: 1_000_000_000 }] }],
  };
  await call(url, token, 'POST', '/v1/jobs', { Job: job });
  let alloc;
  for (const deadline = Date.now() + 30_000; !alloc; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline) throw new Error('stats bench: the task did not start within 30 s');
    alloc = (await call(url, token, 'GET', `/v1/job/${JOB}/allocations`)).body.find((a) => a.ClientStatus === 'running');
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const time = async (path) => {
    const ms = [];
    for (let i = 0; i < requests; i++) {
      const start = performance.now();
      await call(url, token, 'GET', path, undefined, agent);
      ms.push(performance.now() - start);
    }
    return ms;
  };
  const source = (await call(url, token, 'GET', `/v1/client/allocation/${alloc.ID}/stats`, undefined, agent)).body.ResourceUsage.MemoryStats.Measured.includes('Usage') ? 'cgroup' : '/proc';
  const rows = [];
  for (const [label, path] of [
    [`GET /v1/client/allocation/:id/stats (one task, ${source})`, `/v1/client/allocation/${alloc.ID}/stats`],
    ['GET /v1/client/stats', '/v1/client/stats'],
  ]) {
    const ms = await time(path);
    rows.push([label, requests, `${median(ms).toFixed(2)} ms`, `${percentile(ms, 0.99).toFixed(2)} ms`]);
  }
  agent.destroy();
  await call(url, token, 'DELETE', `/v1/job/${JOB}?purge=true`);
  console.log('\nResource usage stats, sequential requests over one keep-alive connection\n');
  console.log(table(['request', 'requests', 'p50', 'p99'], rows));
}
