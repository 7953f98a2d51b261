/**
 * sys/health as Vault's http/sys_health.go answers it, through the server's own pipeline: GET and HEAD,
 * no token, the status chosen by the server's state and the *code / standbyok parameters.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let srv: InProcessServer;

beforeAll(async () => {
  srv = await startInProcessServer();
  // Health is held until the server is ready; in process, nothing else says so.
  srv.server.ready();
});
afterAll(async () => {
  await srv?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const health = (method: string, query = '') => srv.request(method, `/v1/sys/health${query}`, { token: '' });

describe('GET sys/health', () => {
  it("answers the active server's health in Vault's shape, with the cluster's name and ID", async () => {
    const a = await health('GET');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      initialized: true,
      sealed: false,
      standby: false,
      performance_standby: false,
      replication_performance_mode: 'disabled',
      replication_dr_mode: 'disabled',
      server_time_utc: expect.any(Number),
      version: srv.server.services.version,
      cluster_name: 'svc',
      cluster_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // The same cluster ID every time, and the one sys/seal-status answers.
    const again = await health('GET');
    expect((again.body as { cluster_id: string }).cluster_id).toBe((a.body as { cluster_id: string }).cluster_id);
  });

  it('answers the active code asked for; the codes of other states do not change it', async () => {
    expect((await health('GET', '?activecode=299')).status).toBe(299);
    expect((await health('GET', '?standbycode=200&sealedcode=500&uninitcode=500&drsecondarycode=201&performancestandbycode=202')).status).toBe(200);
    expect((await health('GET', '?standbyok=true&perfstandbyok=true')).status).toBe(200);
  });

  it("tells the server's time to the second, in every answer", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    vi.setSystemTime(Math.floor(now / 1000) * 1000 + 10);
    const first = (await health('GET')).body as { server_time_utc: number };
    expect(first.server_time_utc).toBe(Math.floor(now / 1000));
    vi.setSystemTime(Math.floor(now / 1000) * 1000 + 990);
    expect(((await health('GET')).body as { server_time_utc: number }).server_time_utc).toBe(first.server_time_utc);
    vi.setSystemTime((first.server_time_utc + 5) * 1000);
    expect(((await health('GET')).body as { server_time_utc: number }).server_time_utc).toBe(first.server_time_utc + 5);
  });

  it('answers whatever token comes with it, a made-up one included; its help still needs a valid one', async () => {
    for (const token of ['', 'not-a-token', srv.rootToken]) expect((await srv.request('GET', '/v1/sys/health', { token })).status, `token "${token}"`).toBe(200);
    expect((await srv.request('GET', '/v1/sys/health?help=1', { token: 'not-a-token' })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/health?help=1', { token: '' })).status).toBe(403);
    const help = await srv.request('GET', '/v1/sys/health?help=1');
    expect(help.status).toBe(200);
    expect(JSON.stringify(help.body)).toContain('Health of the server.');
  });

  it('refuses a code that is not a status code with a 400 naming the parameter', async () => {
    for (const name of ['activecode', 'standbycode', 'sealedcode', 'uninitcode', 'drsecondarycode', 'performancestandbycode']) {
      const a = await health('GET', `?${name}=abc`);
      expect(a.status, name).toBe(400);
      expect(JSON.stringify(a.body)).toContain(name);
    }
    expect((await health('GET', '?activecode=99')).status).toBe(400);
    expect((await health('GET', '?activecode=1000')).status).toBe(400);
    const bool = await health('GET', '?standbyok=maybe');
    expect(bool.status).toBe(400);
    expect(JSON.stringify(bool.body)).toContain('standbyok');
  });
});

describe('HEAD sys/health', () => {
  it('answers the status the GET would, with no body', async () => {
    const a = await health('HEAD');
    expect(a.status).toBe(200);
    expect(a.body).toBe('');
    expect((await health('HEAD', '?activecode=204')).status).toBe(204);
    const bad = await health('HEAD', '?standbycode=x');
    expect(bad.status).toBe(400);
    expect(bad.body).toBe('');
  });

  it('is served on sys/health only: elsewhere HEAD is a 405', async () => {
    const a = await srv.request('HEAD', '/v1/sys/policies/acl/default');
    expect(a.status).toBe(405);
    expect(a.body).toBe('');
  });
});
