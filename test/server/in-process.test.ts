/**
 * The in-process server (memory store, no port) answers both APIs as the listening server does: the same
 * pipelines, permission checks, indexes and blocking queries, with no disk or database behind them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';

let srv: InProcessServer;
beforeAll(async () => {
  srv = await startInProcessServer();
});
afterAll(async () => {
  await srv.close();
});

describe('the in-process server', () => {
  it('keeps policies and tokens, and checks permissions, on both sides', async () => {
    expect((await srv.request('PUT', '/v1/sys/policy/reader', { body: { policy: 'path "sys/policy/*" { capabilities = ["read"] }' } })).status).toBe(204);
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['reader'] } });
    expect(created.status).toBe(200);
    const token = (created.body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/sys/policy/reader', { token })).status).toBe(200);
    expect((await srv.request('PUT', '/v1/sys/policy/other', { token, body: { policy: '' } })).status).toBe(403);
    expect((await srv.request('GET', '/v1/jobs', { token })).status).toBe(403);
    expect((await srv.request('GET', '/v1/jobs', { token: '' })).status).toBe(403);
    // Nothing of the state went to the disk.
    expect(existsSync(path.join(srv.dataDir, 'state'))).toBe(false);
  });

  it('registers a job, and a blocking query on it wakes with the write that changes it', async () => {
    const job = { ID: 'inproc', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] };
    const reg = await srv.request('POST', '/v1/jobs', { body: { Job: job } });
    expect(reg.status).toBe(200);
    const first = await srv.request('GET', '/v1/job/inproc');
    expect(first.body).toMatchObject({ ID: 'inproc', Status: 'pending' });
    const index = Number(first.headers['X-Svc-Index'] ?? first.headers['x-svc-index']);
    expect(index).toBeGreaterThan(0);
    const waiting = srv.request('GET', `/v1/job/inproc?index=${index}&wait=10s`);
    await srv.request('POST', '/v1/job/inproc', { body: { Job: { ...job, Meta: { changed: 'yes' } } } });
    const woken = await waiting;
    expect(woken.body).toMatchObject({ Meta: { changed: 'yes' } });
    expect(Number(woken.headers['X-Svc-Index'] ?? woken.headers['x-svc-index'])).toBeGreaterThan(index);
  });
});
