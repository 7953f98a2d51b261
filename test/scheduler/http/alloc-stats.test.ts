/**
 * Resource usage as Nomad's client endpoints report it, read from real processes: a busy raw_exec task
 * has RSS and CPU ticks (from its cgroup, or its process tree in /proc on a node without cgroups), the
 * host's figures add up, the ACL is Nomad's
 * (read-job for an allocation, node:read for the host), and a node on another machine answers both
 * through its tunnel.
 */
import os from 'node:os';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/http/client.js';
import type { AllocResourceUsage, HostStats } from '../../../src/scheduler/wire/resource-usage.js';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { running, spawnServer, stopServer, type SpawnedServer } from '../../support/spawn-server.js';
import { runningAgents, spawnAgent, stopAgent, type SpawnedAgent } from '../../support/spawn-agent.js';
import { statusOf, until } from '../../support/wait.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

/** What the task holds in memory: enough to be counted past the kernel's per-CPU batching of small charges. */
const HELD_BYTES = 16_000_000;

/** A shell holding HELD_BYTES in a variable, then spinning on a builtin: one process that uses a core as long as it runs. */
const busyJob = (id: string) => ({
  Job: {
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 'spin', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `x=$(head -c ${HELD_BYTES} /dev/zero | tr '\\0' a); while :; do :; done`] }, KillTimeout: 1_000_000_000 }] }],
  },
});

async function runningAlloc(api: ApiClient, job: string): Promise<Stub> {
  const [alloc] = await until(() => api.scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`).then((r) => r.body), (l) => l[0]?.ClientStatus === 'running', `${job} to run`);
  return alloc;
}

/**
 * Stats read until the task holds its memory (it reads it in first) and was sampled twice with CPU time
 * spent between the readings: a task whose usage never shows fails here, by the timeout.
 */
const busyStats = (api: ApiClient, allocId: string) =>
  until(
    () => api.scheduler<AllocResourceUsage>('GET', `/v1/client/allocation/${allocId}/stats`).then((r) => r.body),
    (s) => (s.Tasks.spin?.ResourceUsage.CpuStats.TotalTicks ?? 0) > 0 && (s.Tasks.spin?.ResourceUsage.MemoryStats.RSS ?? 0) > HELD_BYTES / 2,
    'the busy task to hold its memory and spend CPU ticks',
  );

function expectPlausibleHost(host: HostStats): void {
  expect(host.Memory.Total).toBe(os.totalmem());
  expect(host.Memory.Total).toBeGreaterThan(host.Memory.Used);
  expect(host.Memory.Used).toBeGreaterThan(0);
  expect(host.Memory.Free).toBeLessThanOrEqual(host.Memory.Available);
  expect(host.CPU.map((c) => c.CPU)).toEqual(os.cpus().map((_, i) => `cpu${i}`));
  for (const cpu of host.CPU) expect(cpu.User + cpu.System + cpu.Idle).toBeLessThanOrEqual(100.0001);
  expect(host.Uptime).toBeGreaterThan(0);
  expect(host.AllocDirStats!.Size).toBeGreaterThan(host.AllocDirStats!.Available);
  expect(host.DiskStats).toEqual([host.AllocDirStats]);
  expect(host.Timestamp).toBeGreaterThan(0);
}

describe('allocation and host stats from the server’s own node', () => {
  let srv: TestServer;
  let alloc: Stub;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    srv = await startTestServer();
    await srv.client().scheduler('POST', '/v1/jobs', { body: busyJob('spinner') });
    alloc = await runningAlloc(srv.client(), 'spinner');
    const policy = (name: string, text: string) => srv.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
    const token = async (...policies: string[]) => String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies } }))?.auth?.client_token);
    await policy('ns-read', 'namespace "default" {\n  capabilities = ["read-job"]\n}\n');
    await policy('node-read', 'node {\n  policy = "read"\n}\n');
    tokens.readJob = await token('ns-read');
    tokens.nodeRead = await token('node-read');
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('a busy task has RSS and CPU ticks, each task and the allocation summed', async () => {
    const stats = await busyStats(srv.client(), alloc.ID);
    const task = stats.Tasks.spin;
    expect(Object.keys(stats.Tasks)).toEqual(['spin']);
    expect(task.Pids).toBeNull();
    const { MemoryStats: mem, CpuStats: cpu } = task.ResourceUsage;
    // Within a wide ratio of what the shell holds (its variable, and the copy it read it into).
    expect(mem.RSS).toBeGreaterThan(HELD_BYTES / 2);
    expect(mem.RSS).toBeLessThan(HELD_BYTES * 8);
    // From the task's cgroup where the node has cgroups (the kernel's memory counters), else /proc.
    const { body: node } = await srv.client().scheduler<{ Attributes: Record<string, string> }>('GET', `/v1/node/${alloc.NodeID}`);
    if (node.Attributes['unique.cgroup.version']) {
      expect(mem.Measured).toEqual(['RSS', 'Cache', 'Swap', 'Usage', 'Max Usage']);
      expect(mem.Usage).toBeGreaterThanOrEqual(mem.RSS);
      expect(mem.MaxUsage).toBeGreaterThanOrEqual(mem.Usage);
      expect(cpu.Measured).toContain('Throttled Periods');
    } else {
      expect(mem.Measured).toEqual(['RSS']);
    }
    expect(cpu.Measured).toEqual(expect.arrayContaining(['User Mode', 'System Mode', 'Percent']));
    expect(cpu.Percent).toBeGreaterThan(0);
    // A share of one core, never more than the host has.
    expect(cpu.Percent).toBeLessThanOrEqual(100 * os.cpus().length + 1);
    expect(cpu.UserMode + cpu.SystemMode).toBeGreaterThan(0);
    expect(stats.ResourceUsage).toEqual(task.ResourceUsage);
    expect(stats.Timestamp).toBe(task.Timestamp);
    expect(stats.ResourceUsage.DeviceStats).toEqual([]);
  });

  it('needs read-job in the allocation’s namespace; an unknown allocation is 404', async () => {
    expect((await statusOf(srv.client(tokens.nodeRead).scheduler('GET', `/v1/client/allocation/${alloc.ID}/stats`))).code).toBe(403);
    expect((await statusOf(srv.client(tokens.readJob).scheduler('GET', `/v1/client/allocation/${alloc.ID}/stats`))).code).toBe(200);
    expect(await statusOf(srv.client().scheduler('GET', '/v1/client/allocation/00000000-0000-4000-8000-000000000000/stats'))).toEqual({ code: 404, message: 'alloc not found' });
  });

  it('host stats: memory, CPUs, the allocation disk and uptime, with node:read', async () => {
    const { body: host } = await srv.client(tokens.nodeRead).scheduler<HostStats>('GET', '/v1/client/stats');
    expectPlausibleHost(host);
    expect((await statusOf(srv.client(tokens.readJob).scheduler('GET', '/v1/client/stats'))).code).toBe(403);
    expect((await statusOf(srv.client().scheduler('GET', '/v1/client/stats', { query: { node_id: '00000000-0000-4000-8000-000000000000' } }))).code).toBe(404);
  });
});

describe('stats of a node on another machine, through its tunnel', () => {
  let dir: string;
  let home: string;
  let server: SpawnedServer;
  let agent: SpawnedAgent;

  beforeAll(async () => {
    dir = await makeTempDir('svc-stats-agent-');
    home = await makeTempDir('svc-stats-agent-home-');
    server = await spawnServer(['-dev', '-port=0', '-client=false', '-log-level=warn'], { HOME: home });
    agent = await spawnAgent([`-servers=${server.url}`, `-data-dir=${dir}`, '-log-level=warn', '-token', server.rootToken!], { HOME: home });
  });
  afterAll(async () => {
    if (agent) await stopAgent(agent);
    await stopServer(server);
    for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('answers allocation and host stats from the agent', async () => {
    const api = new ApiClient({ address: server.url, token: server.rootToken });
    await api.scheduler('POST', '/v1/jobs', { body: busyJob('remote-spinner') });
    const alloc = await runningAlloc(api, 'remote-spinner');
    const stats = await busyStats(api, alloc.ID);
    expect(stats.Tasks.spin.ResourceUsage.MemoryStats.RSS).toBeGreaterThan(HELD_BYTES / 2);
    // The server runs no node: without node_id there is none to ask.
    expect((await statusOf(api.scheduler('GET', '/v1/client/stats'))).code).toBe(400);
    const { body: host } = await api.scheduler<HostStats>('GET', '/v1/client/stats', { query: { node_id: alloc.NodeID } });
    expectPlausibleHost(host);
    // The agent's tasks outlive it: stop this one (and its cgroup goes with it) before the agent stops.
    await api.scheduler('DELETE', '/v1/job/remote-spinner');
    await until(() => api.scheduler<Stub>('GET', `/v1/allocation/${alloc.ID}`).then((r) => r.body), (a) => a.ClientStatus === 'complete', 'the task to stop');
  });
});
