/**
 * GET /v1/regions and GET /v1/agent/health, which Nomad answers without a token: the one region, and the
 * health of the server part (a leader is known) and of the client part (the server's node runs), 500
 * when a part asked for is unhealthy or missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('regions and agent health without a node', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  it('lists the one region, to anyone', async () => {
    expect(await srv.request('GET', '/v1/regions', { token: '' })).toMatchObject({ status: 200, body: ['global'] });
    expect(await srv.request('GET', '/v1/regions', { token: 'not-a-token' })).toMatchObject({ status: 403 });
  });

  it('answers the server part only, healthy, to anyone', async () => {
    const res = await srv.request('GET', '/v1/agent/health', { token: '' });
    expect(res).toMatchObject({ status: 200, body: { server: { ok: true, message: 'ok' } } });
    expect(Object.keys(res.body as object)).toEqual(['server']);
  });

  it('is a 500 naming the missing client part when it is asked for', async () => {
    const res = await srv.request('GET', '/v1/agent/health?type=client', { token: '' });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body as string)).toEqual({ client: { ok: false, message: 'client not enabled' } });
    const both = await srv.request('GET', '/v1/agent/health?type=client&type=server', { token: '' });
    expect(both.status).toBe(500);
    expect(JSON.parse(both.body as string)).toEqual({ client: { ok: false, message: 'client not enabled' }, server: { ok: true, message: 'ok' } });
    expect(await srv.request('GET', '/v1/agent/health?type=server', { token: '' })).toMatchObject({ status: 200, body: { server: { ok: true, message: 'ok' } } });
  });

  // Last: the server steps down for good, as one that lost the lead does.
  it('answers unhealthy once the server no longer leads and knows no leader', async () => {
    await srv.server.services.leadership.stop();
    const res = await srv.request('GET', '/v1/agent/health', { token: '' });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body as string)).toEqual({ server: { ok: false, message: 'No cluster leader' } });
  });
});

describe('agent health with the server\'s node', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv?.close());

  it('answers both parts healthy', async () => {
    const res = await fetch(`${srv.url}/v1/agent/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ client: { ok: true, message: 'ok' }, server: { ok: true, message: 'ok' } });
    expect(res.headers.get('X-Nomad-Index')).not.toBeNull();
  });
});
