/**
 * GET /v1/metrics and GET /v1/sys/metrics: go-metrics' JSON and Prometheus' text format, both answered
 * from the one registry of the process; who may read them (Nomad's agent:read, Vault's read on
 * sys/metrics, or anyone with unauthenticated_metrics_access); and series that move when what they count
 * happens: requests by route, tokens made and revoked, policies, placements, heartbeats, a missed TTL.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { until } from '../support/wait.js';

interface Summary {
  Timestamp: string;
  Gauges: Array<{ Name: string; Value: number; Labels: Record<string, string> }>;
  Points: unknown[];
  Counters: Array<Record<string, unknown> & { Name: string; Count: number; Sum: number; Labels: Record<string, string> }>;
  Samples: Array<Record<string, unknown> & { Name: string; Count: number; Sum: number; Labels: Record<string, string> }>;
}

const SAMPLE_FIELDS = ['Count', 'Labels', 'Max', 'Mean', 'Min', 'Name', 'Rate', 'Stddev', 'Sum'];

/** A line of Prometheus' text format: a comment, or `name{labels} value` (its parser reads NaN in any case). */
const PROM_LINE = /^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|NaN|[+-]Inf))$/i;

const matches = (labels: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => labels[k] === v);

async function summary(srv: InProcessServer, path = '/v1/metrics'): Promise<Summary> {
  const answer = await srv.request('GET', path);
  expect(answer.status).toBe(200);
  return answer.body as Summary;
}

/** The Sum of a counter, the Count of a sample, the Value of a gauge (0 when the series has no such labels yet). */
async function figure(srv: InProcessServer, kind: 'Counters' | 'Samples' | 'Gauges', name: string, labels: Record<string, string> = {}): Promise<number> {
  const entries = (await summary(srv))[kind] as Array<{ Name: string; Labels: Record<string, string>; Sum?: number; Count?: number; Value?: number }>;
  const found = entries.filter((e) => e.Name === name && matches(e.Labels, labels));
  return found.reduce((n, e) => n + (kind === 'Counters' ? e.Sum! : kind === 'Samples' ? e.Count! : e.Value!), 0);
}

async function tokenWith(srv: InProcessServer, name: string, policy: string): Promise<string> {
  await srv.request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } });
  const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: [name] } });
  return (created.body as { auth: { client_token: string } }).auth.client_token;
}

describe('the metrics endpoints', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer({ telemetry: { prometheusMetrics: true, disableHostname: true }, heartbeatTtlMs: 600, heartbeatGraceMs: 400 });
  });
  afterAll(async () => srv?.close());

  it("answers go-metrics' JSON on both sides, from the same registry", async () => {
    // A request is counted once answered: one on each side, so both request series exist.
    await srv.request('GET', '/v1/jobs');
    await srv.request('GET', '/v1/auth/token/lookup-self');
    for (const path of ['/v1/metrics', '/v1/sys/metrics']) {
      const body = await summary(srv, path);
      expect(Object.keys(body).sort()).toEqual(['Counters', 'Gauges', 'Points', 'Samples', 'Timestamp']);
      expect(body.Timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/);
      for (const g of body.Gauges) {
        expect(Object.keys(g).sort()).toEqual(['Labels', 'Name', 'Value']);
        expect(typeof g.Value).toBe('number');
      }
      for (const s of [...body.Counters, ...body.Samples]) expect(Object.keys(s).sort()).toEqual(SAMPLE_FIELDS);
      const names = new Set([...body.Gauges, ...body.Samples].map((e) => e.Name));
      for (const name of ['nomad.runtime.alloc_bytes', 'vault.runtime.sys_bytes', 'nomad.runtime.total_gc_runs', 'nomad.nomad.broker.total_ready', 'vault.core.active', 'nomad.http.request', 'vault.core.handle_request']) {
        expect(names, name).toContain(name);
      }
    }
  });

  it("answers Prometheus' text format with format=prometheus, every line a comment or a sample", async () => {
    for (const path of ['/v1/metrics?format=prometheus', '/v1/sys/metrics?format=prometheus']) {
      const answer = await srv.request('GET', path);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      const lines = String(answer.body).split('\n').filter((l) => l !== '');
      expect(lines.filter((l) => !PROM_LINE.test(l))).toEqual([]);
      const text = String(answer.body);
      expect(text).toContain('# TYPE nomad_nomad_broker_total_ready gauge');
      expect(text).toMatch(/^nomad_http_request_bucket\{method="GET",route="\/v1\/metrics",code="200",le="\+Inf"\} \d+$/m);
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^vault_core_active 1$/m);
    }
  });

  it('refuses a format it does not know, naming the field', async () => {
    const nomad = await srv.request('GET', '/v1/metrics?format=xml');
    expect(nomad.status).toBe(400);
    expect(String(nomad.body)).toContain('"format"');
    const vault = await srv.request('GET', '/v1/sys/metrics?format=xml');
    expect(vault.status).toBe(400);
    expect(JSON.stringify(vault.body)).toContain('format');
  });

  it('asks agent:read on /v1/metrics and read on sys/metrics, as Nomad and Vault do', async () => {
    expect((await srv.request('GET', '/v1/metrics', { token: '' })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/metrics', { token: '' })).status).toBe(403);
    // The token is checked before the query: no token learns what a bad format would answer.
    expect((await srv.request('GET', '/v1/sys/metrics?format=nope', { token: '' })).status).toBe(403);
    const agent = await tokenWith(srv, 'agent-reader', 'agent {\n  policy = "read"\n}\n');
    const node = await tokenWith(srv, 'node-reader', 'node {\n  policy = "write"\n}\nnamespace "*" {\n  policy = "write"\n}\n');
    const sys = await tokenWith(srv, 'sys-metrics', 'path "sys/metrics" {\n  capabilities = ["read"]\n}\n');
    const denied = await tokenWith(srv, 'agent-denied', 'agent {\n  policy = "deny"\n}\n');
    expect((await srv.request('GET', '/v1/metrics', { token: agent })).status).toBe(200);
    expect((await srv.request('GET', '/v1/metrics', { token: node })).status).toBe(403);
    expect((await srv.request('GET', '/v1/metrics', { token: sys })).status).toBe(403);
    expect((await srv.request('GET', '/v1/metrics', { token: denied })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/metrics', { token: sys })).status).toBe(200);
    expect((await srv.request('GET', '/v1/sys/metrics', { token: agent })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/metrics', { token: 'not-a-token' })).status).toBe(403);
  });

  it("counts a request under its route's pattern and status, not its path", async () => {
    const jobs = { method: 'GET', route: '/v1/job/*job_id', code: '404' };
    const before = await figure(srv, 'Samples', 'nomad.http.request', jobs);
    await srv.request('GET', '/v1/job/one');
    await srv.request('GET', '/v1/job/two');
    expect(await figure(srv, 'Samples', 'nomad.http.request', jobs)).toBe(before + 2);
    const self = { method: 'GET', route: '/v1/auth/token/lookup-self', code: '200' };
    const selfBefore = await figure(srv, 'Samples', 'vault.core.handle_request', self);
    await srv.request('GET', '/v1/auth/token/lookup-self');
    expect(await figure(srv, 'Samples', 'vault.core.handle_request', self)).toBe(selfBefore + 1);
    const names = (await summary(srv)).Samples.filter((s) => s.Name === 'nomad.http.request').map((s) => s.Labels.route);
    expect(names.some((r) => r.includes('one') || r.includes('two'))).toBe(false);
  });

  it('counts tokens created, revoked and expired, and the policies stored', async () => {
    const made = { mount_point: 'auth/token/', token_type: 'service' };
    const createdBefore = await figure(srv, 'Counters', 'vault.token.creation', made);
    const revokedBefore = await figure(srv, 'Counters', 'vault.token.revoke');
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['default'] } });
    const token = (created.body as { auth: { client_token: string } }).auth.client_token;
    expect(await figure(srv, 'Counters', 'vault.token.creation', made)).toBe(createdBefore + 1);
    await srv.request('POST', '/v1/auth/token/revoke', { body: { token } });
    expect(await figure(srv, 'Counters', 'vault.token.revoke')).toBe(revokedBefore + 1);

    // A token past its TTL is revoked when next presented (or by the sweep): counted as expired.
    const expiredBefore = await figure(srv, 'Counters', 'vault.expire.revoke');
    const short = await srv.request('POST', '/v1/auth/token/create', { body: { ttl: '1s' } });
    const shortToken = (short.body as { auth: { client_token: string } }).auth.client_token;
    await until(() => srv.request('GET', '/v1/auth/token/lookup-self', { token: shortToken }), (a) => a.status === 403, 'the token to expire');
    expect(await figure(srv, 'Counters', 'vault.expire.revoke')).toBe(expiredBefore + 1);
    expect(await figure(srv, 'Counters', 'vault.token.revoke')).toBe(revokedBefore + 1);

    const policies = await figure(srv, 'Gauges', 'vault.policy.configured.count', { policy_type: 'acl' });
    await srv.request('PUT', '/v1/sys/policies/acl/one-more', { body: { policy: 'path "x" {\n  capabilities = ["read"]\n}\n' } });
    expect(await figure(srv, 'Gauges', 'vault.policy.configured.count', { policy_type: 'acl' })).toBe(policies + 1);
  });

  it('counts placements, failed placements, scheduler runs, plan commits, heartbeats and a node that misses its TTL', async () => {
    const placedBefore = await figure(srv, 'Counters', 'nomad.nomad.plan.placements');
    const failedBefore = await figure(srv, 'Counters', 'nomad.nomad.plan.failed_placements');
    const runsBefore = await figure(srv, 'Samples', 'nomad.nomad.worker.invoke_scheduler.service');
    const appliedBefore = await figure(srv, 'Samples', 'nomad.nomad.plan.apply');
    const commitsBefore = await figure(srv, 'Samples', 'nomad.raft.commitTime', { op: 'commit' });
    const node = fakeNode({ Datacenter: 'dc-metrics' });
    await registerFakeNode(srv.client(), node);
    expect(await figure(srv, 'Gauges', 'nomad.nomad.nodes', { status: 'ready' })).toBe(1);
    expect(await figure(srv, 'Gauges', 'nomad.nomad.heartbeat.active')).toBe(1);

    const beatsBefore = await figure(srv, 'Samples', 'nomad.nomad.client.update_status');
    await srv.client(node.secret).scheduler('PUT', `/v1/node/${node.node.ID}/heartbeat`);
    expect(await figure(srv, 'Samples', 'nomad.nomad.client.update_status')).toBe(beatsBefore + 1);

    const task = (cpu: number) => [{ Name: 't', Driver: 'mock', Resources: { CPU: cpu, MemoryMB: 64 } }];
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'fits', Datacenters: ['dc-metrics'], TaskGroups: [{ Name: 'g', Count: 2, Tasks: task(100) }] } } });
    await until(() => figure(srv, 'Counters', 'nomad.nomad.plan.placements'), (n) => n === placedBefore + 2, 'two placements counted');
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'too-big', Datacenters: ['dc-metrics'], TaskGroups: [{ Name: 'g', Count: 3, Tasks: task(1_000_000) }] } } });
    await until(() => figure(srv, 'Counters', 'nomad.nomad.plan.failed_placements'), (n) => n === failedBefore + 3, 'three failed placements counted');
    // Counted when scheduled; the blocked evaluation and the summary are in the state once the plan commits.
    await until(() => figure(srv, 'Gauges', 'nomad.nomad.blocked_evals.total_blocked'), (n) => n === 1, 'the blocked evaluation');
    await until(() => figure(srv, 'Gauges', 'nomad.nomad.job_summary.queued'), (n) => n === 3, 'the queued allocations');
    expect(await figure(srv, 'Gauges', 'nomad.nomad.job_summary.starting')).toBe(2);
    expect(await figure(srv, 'Samples', 'nomad.nomad.worker.invoke_scheduler.service')).toBeGreaterThanOrEqual(runsBefore + 2);
    expect(await figure(srv, 'Samples', 'nomad.nomad.plan.apply')).toBeGreaterThanOrEqual(appliedBefore + 2);
    expect(await figure(srv, 'Samples', 'nomad.raft.commitTime', { op: 'commit' })).toBeGreaterThanOrEqual(commitsBefore + 2);

    // The node beats no more: past its TTL and grace it is marked down, and counted so.
    const missedBefore = await figure(srv, 'Samples', 'nomad.nomad.heartbeat.invalidate');
    await until(() => figure(srv, 'Gauges', 'nomad.nomad.nodes', { status: 'down' }), (n) => n === 1, 'the node marked down');
    expect(await figure(srv, 'Samples', 'nomad.nomad.heartbeat.invalidate')).toBe(missedBefore + 1);
    expect(await figure(srv, 'Gauges', 'nomad.nomad.heartbeat.active')).toBe(0);
  });
});

describe('telemetry settings', () => {
  it('opens both endpoints without a token with unauthenticated_metrics_access', async () => {
    const srv = await startInProcessServer({ telemetry: { unauthenticatedMetricsAccess: true, prometheusMetrics: true } });
    try {
      expect((await srv.request('GET', '/v1/metrics', { token: '' })).status).toBe(200);
      expect((await srv.request('GET', '/v1/sys/metrics', { token: '' })).status).toBe(200);
      expect((await srv.request('GET', '/v1/metrics?format=prometheus', { token: '' })).status).toBe(200);
    } finally {
      await srv.close();
    }
  });

  it('serves the text format only with prometheus_metrics, and names gauges after the host unless disable_hostname', async () => {
    const srv = await startInProcessServer();
    try {
      const nomad = await srv.request('GET', '/v1/metrics?format=prometheus');
      expect(nomad).toMatchObject({ status: 415, body: 'Prometheus is not enabled' });
      const vault = await srv.request('GET', '/v1/sys/metrics?format=prometheus');
      expect(vault).toMatchObject({ status: 400, body: { errors: ['prometheus is not enabled'] } });
      const host = hostname().split('.')[0];
      const names = (await summary(srv)).Gauges.map((g) => g.Name);
      expect(names).toContain(`nomad.${host}.runtime.alloc_bytes`);
      expect(names).toContain(`vault.${host}.core.active`);
      expect(names).not.toContain('nomad.runtime.alloc_bytes');
    } finally {
      await srv.close();
    }
  });

  it("serves the text format in -dev without a telemetry block, as Nomad's dev agent, unless the block turns it off", async () => {
    const dev = await startInProcessServer({ dev: true });
    const off = await startInProcessServer({ dev: true, telemetry: { prometheusMetrics: false } });
    try {
      expect((await dev.request('GET', '/v1/metrics?format=prometheus')).status).toBe(200);
      expect((await off.request('GET', '/v1/metrics?format=prometheus')).status).toBe(415);
    } finally {
      await dev.close();
      await off.close();
    }
  });
});
