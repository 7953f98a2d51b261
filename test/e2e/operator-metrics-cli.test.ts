/**
 * `svc operator metrics` through the built bin/svc, against a real server: go-metrics' JSON on one line
 * or indented, Prometheus' text format, the ACL it needs, and a client that never loads prom-client.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ client: false, telemetry: { prometheusMetrics: true, disableHostname: true } });
});
afterAll(async () => {
  await srv?.close();
});

describe('svc operator metrics', () => {
  it("prints go-metrics' JSON on one line, and indented with -pretty", async () => {
    const r = await srv.cli(['operator', 'metrics']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const body = JSON.parse(r.stdout) as { Gauges: Array<{ Name: string }>; Samples: unknown[] };
    expect(Object.keys(body).sort()).toEqual(['Counters', 'Gauges', 'Points', 'Samples', 'Timestamp']);
    expect(body.Gauges.map((g) => g.Name).some((n) => n.endsWith('.runtime.alloc_bytes'))).toBe(true);
    const pretty = await srv.cli(['operator', 'metrics', '-pretty']);
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toMatch(/^\{\n {4}"Timestamp": /);
  });

  it("prints Prometheus' text format with -format=prometheus", async () => {
    const r = await srv.cli(['operator', 'metrics', '-format=prometheus']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# TYPE nomad_nomad_broker_total_ready gauge');
    expect(r.stdout).toMatch(/^nomad_http_request_count\{method="GET",route="\/v1\/metrics",code="200"\} \d+$/m);
  });

  it('refuses an unknown format (exit 1), and a token without agent:read is told the server said no', async () => {
    const bad = await srv.cli(['operator', 'metrics', '-format=xml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('-format');
    await srv.client().secrets('PUT', 'sys/policies/acl/no-agent', { body: { policy: 'node {\n  policy = "read"\n}\n' } });
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['no-agent'] } });
    const denied = await srv.cli(['operator', 'metrics'], { token: String(created?.auth?.client_token) });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('Permission denied');
  });

  // The server answers from this process: the command runs beside it, never blocking it (no spawnSync).
  it('runs without loading prom-client, which only the server needs', async () => {
    const main = fileURLToPath(new URL('../../dist/main.cjs', import.meta.url));
    const script = `require(${JSON.stringify(main)})
      .run(['operator', 'metrics'], undefined, { HOME: '/nonexistent', SVC_ADDR: ${JSON.stringify(srv.url)}, SVC_TOKEN: ${JSON.stringify(srv.rootToken)} })
      .then((code) => process.stderr.write('\\nexit ' + code + ' prom-client loaded: ' + Object.keys(require.cache).some((f) => f.includes('/node_modules/prom-client/'))));`;
    const run = await promisify(execFile)(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run.stderr).toMatch(/exit 0 prom-client loaded: false$/);
  });
});
