/**
 * svc's blocking read of KV secrets: every read answers X-Svc-Index; a read with ?index=<that> answers
 * only after a later change to a secret of the same KV version (any key's), or at its `wait`; a token revoked during
 * the wait gets a 403, not what was written since; a bad index or wait is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessAnswer, type InProcessServer } from '../../support/in-process.js';
import { freshMount, tokenWithPolicy } from './kv-helpers.js';

let ts: InProcessServer;
let v2: string;
let reader: string;

type Body = { data: { data: Record<string, string> | null; metadata: { version: number } } };

const indexOf = (a: InProcessAnswer) => Number(Object.entries(a.headers).find(([k]) => k.toLowerCase() === 'x-svc-index')?.[1]);
const put = (key: string, value: string) => ts.request('PUT', `/v1/${v2}/data/${key}`, { body: { data: { value } } });

/** Starts a request and tells whether it has answered yet, without waiting for it. */
function pending(p: Promise<InProcessAnswer>) {
  let answered = false;
  void p.then(() => (answered = true));
  return { answer: p, answered: () => answered };
}

beforeAll(async () => {
  ts = await startInProcessServer();
  v2 = await freshMount(ts, 2);
  reader = await tokenWithPolicy(ts, 'blocking-reader', `path "${v2}/data/*" { capabilities = ["read"] }`);
  expect((await put('app', 'one')).status).toBe(200);
});
afterAll(async () => ts?.close());

describe('blocking reads of KV version 2 data', () => {
  it('every read answers the index of the last KV version 2 change, which a write moves', async () => {
    const first = await ts.request('GET', `/v1/${v2}/data/app`, { token: reader });
    expect(first.status).toBe(200);
    expect(indexOf(first)).toBeGreaterThan(0);
    await put('other', 'x');
    expect(indexOf(await ts.request('GET', `/v1/${v2}/data/app`, { token: reader }))).toBeGreaterThan(indexOf(first));
  });

  it('?index waits for a later change, then answers the data as it is then', async () => {
    const before = await ts.request('GET', `/v1/${v2}/data/app`, { token: reader });
    const read = pending(ts.request('GET', `/v1/${v2}/data/app?index=${indexOf(before)}&wait=5m`, { token: reader }));
    // Another request's full round trip: a read that did not wait would have answered by now.
    await ts.request('GET', '/v1/auth/token/lookup-self', { token: reader });
    expect(read.answered()).toBe(false);
    await put('app', 'two');
    const answer = await read.answer;
    expect(answer.status).toBe(200);
    expect((answer.body as Body).data.data).toEqual({ value: 'two' });
    expect(indexOf(answer)).toBeGreaterThan(indexOf(before));
  });

  it('answers at its wait when nothing changed, with the same index', async () => {
    const before = await ts.request('GET', `/v1/${v2}/data/app`, { token: reader });
    const answer = await ts.request('GET', `/v1/${v2}/data/app?index=${indexOf(before)}&wait=1s`, { token: reader });
    expect(answer.status).toBe(200);
    expect(indexOf(answer)).toBe(indexOf(before));
  });

  it('refuses a token revoked while it waited, rather than answering what was written since', async () => {
    const doomed = await tokenWithPolicy(ts, 'blocking-doomed', `path "${v2}/data/*" { capabilities = ["read"] }`);
    const before = await ts.request('GET', `/v1/${v2}/data/app`, { token: doomed });
    const read = pending(ts.request('GET', `/v1/${v2}/data/app?index=${indexOf(before)}&wait=5m`, { token: doomed }));
    expect((await ts.request('POST', '/v1/auth/token/revoke', { body: { token: doomed } })).status).toBe(204);
    await put('app', 'three');
    const answer = await read.answer;
    expect(answer.status).toBe(403);
    expect(JSON.stringify(answer.body)).not.toContain('three');
  });

  it('version 1 reads wait for a version 1 change, and a version 1 secret may still hold "index" and "wait"', async () => {
    const v1 = await freshMount(ts, 1);
    const v1Reader = await tokenWithPolicy(ts, 'blocking-v1', `path "${v1}/*" { capabilities = ["read"] }`);
    expect((await ts.request('PUT', `/v1/${v1}/app`, { body: { index: 'not a number', wait: 'whenever' } })).status).toBe(204);
    const before = await ts.request('GET', `/v1/${v1}/app`, { token: v1Reader });
    expect(before.body).toMatchObject({ data: { index: 'not a number', wait: 'whenever' } });
    const read = pending(ts.request('GET', `/v1/${v1}/app?index=${indexOf(before)}&wait=5m`, { token: v1Reader }));
    // A version 2 write is no version 1 change.
    await put('app', 'v2-only');
    await ts.request('GET', '/v1/auth/token/lookup-self', { token: v1Reader });
    expect(read.answered()).toBe(false);
    expect((await ts.request('PUT', `/v1/${v1}/app`, { body: { value: 'new' } })).status).toBe(204);
    const answer = await read.answer;
    expect(answer.body).toMatchObject({ data: { value: 'new' } });
    expect(indexOf(answer)).toBeGreaterThan(indexOf(before));
    expect((await ts.request('GET', `/v1/${v1}/app?index=x`, { token: v1Reader })).status).toBe(400);
  });

  it('names the field of a bad index or wait', async () => {
    const bad = await ts.request('GET', `/v1/${v2}/data/app?index=-1`, { token: reader });
    expect(bad).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('"index"')] } });
    const word = await ts.request('GET', `/v1/${v2}/data/app?index=nope`, { token: reader });
    expect(word.status).toBe(400);
    expect(JSON.stringify(word.body)).toContain('index');
    const wait = await ts.request('GET', `/v1/${v2}/data/app?index=1&wait=soon`, { token: reader });
    expect(wait.status).toBe(400);
    expect(JSON.stringify(wait.body)).toContain('wait');
  });
});
