/**
 * The server's log at its most verbose, as JSON lines: every request is logged (method, path, status,
 * duration, request ID), and no token, secret value or credential query parameter ever is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';

let srv: InProcessServer;
const lines: string[] = [];

beforeAll(async () => {
  srv = await startInProcessServer({ dev: true, logLevel: 'trace', logJson: true, logWrite: (l) => lines.push(l) });
});
afterAll(async () => {
  await srv?.close();
});

describe('the server log, at trace level in JSON', () => {
  it('logs each request with its ID and no secret of any of them', async () => {
    const password = `pw-${Math.random().toString(36).slice(2)}-hunter2`;
    const put = await srv.request('PUT', '/v1/secret/data/db', { body: { data: { password } } });
    expect(put.status).toBe(200);
    const read = await srv.request('GET', '/v1/secret/data/db');
    expect(read.body).toMatchObject({ data: { data: { password } } });

    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['default'], ttl: '1h' } });
    const child = (created.body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/auth/token/lookup-self', { token: child })).status).toBe(200);
    expect((await srv.request('POST', '/v1/auth/token/lookup', { body: { token: child } })).status).toBe(200);
    // A credential in the query string is named, its value is not.
    await srv.request('GET', `/v1/jobs?token=${child}&prefix=web&next_token=web-2`);
    expect((await srv.request('POST', '/v1/auth/token/revoke', { body: { token: child } })).status).toBe(204);
    // A token the server does not know is refused, and not logged either.
    const forged = 'hvs.forged-token-value-0123456789';
    expect((await srv.request('GET', '/v1/auth/token/lookup-self', { token: forged })).status).toBe(403);
    expect((await srv.request('GET', '/v1/jobs', { token: forged })).status).toBe(403);
    // The one-time token of `svc ui -authenticate`, in the address the browser opens.
    const ott = ((await srv.request('POST', '/v1/acl/token/onetime')).body as { OneTimeToken: { OneTimeSecretID: string } }).OneTimeToken.OneTimeSecretID;
    await srv.request('GET', `/ui/?ott=${ott}`, { token: '' });

    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) expect(Object.keys(r)).toEqual(expect.arrayContaining(['@level', '@message', '@timestamp']));
    const requests = records.filter((r) => r['@message'] === 'request complete');
    const putLine = requests.find((r) => r.method === 'PUT' && r.path === '/v1/secret/data/db');
    expect(putLine).toMatchObject({ '@level': 'debug', '@module': 'http', status: 200, duration: expect.stringMatching(/^\d+\.\d{3}ms$/) });
    expect(putLine!.request_id).toBe(put.headers['x-svc-request-id']);
    expect(requests.find((r) => String(r.path).startsWith('/v1/jobs?'))!.path).toBe('/v1/jobs?token=<redacted>&prefix=web&next_token=web-2');
    expect(requests.filter((r) => r.status === 403)).toHaveLength(2);
    expect(requests.find((r) => String(r.path).startsWith('/ui/?'))!.path).toBe('/ui/?ott=<redacted>');

    const log = lines.join('');
    for (const secret of [password, child, forged, ott, srv.rootToken]) expect(log).not.toContain(secret);
  });
});
