import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { MERGE_PATCH, apiError, tokenWithPolicy } from './kv-helpers.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
  await ts.client().secrets('POST', 'sys/mounts/secret', { body: { type: 'kv-v2' } });
  await ts.client().secrets('POST', 'secret/data/app/db', { body: { data: { password: 'p' } } });
  await ts.client().secrets('POST', 'sys/mounts/plain', { body: { type: 'kv' } });
});

afterAll(async () => {
  await ts?.close();
});

const status = async (p: Promise<unknown>) => (await apiError(p)).statusCode;

describe('KV ACL paths, as Vault\'s', () => {
  it('secret/data/* reads and writes data, but not metadata, and not the versions endpoints', async () => {
    const token = await tokenWithPolicy(ts, 'data-rw', 'path "secret/data/*" { capabilities = ["create", "read", "update"] }');
    const c = ts.client(token);
    expect((await c.secrets('GET', 'secret/data/app/db'))!.data!.data).toEqual({ password: 'p' });
    expect((await c.secrets('POST', 'secret/data/app/db', { body: { data: { password: 'q' } } }))!.data!.version).toBe(2);
    expect(await status(c.secrets('GET', 'secret/metadata/app/db'))).toBe(403);
    expect(await status(c.secrets('LIST', 'secret/metadata/app'))).toBe(403);
    expect(await status(c.secrets('POST', 'secret/destroy/app/db', { body: { versions: [1] } }))).toBe(403);
    expect(await status(c.secrets('DELETE', 'secret/data/app/db'))).toBe(403);
  });

  it('secret/metadata/* reads and lists metadata but not the data', async () => {
    const token = await tokenWithPolicy(ts, 'meta-ro', 'path "secret/metadata/*" { capabilities = ["read", "list"] }');
    const c = ts.client(token);
    expect((await c.secrets('GET', 'secret/metadata/app/db'))!.data!.current_version).toBeGreaterThanOrEqual(1);
    expect((await c.secrets('LIST', 'secret/metadata/app'))!.data!.keys).toEqual(['db']);
    expect(await status(c.secrets('GET', 'secret/data/app/db'))).toBe(403);
  });

  it('PATCH needs the patch capability; update alone does not give it', async () => {
    const update = ts.client(await tokenWithPolicy(ts, 'upd', 'path "secret/data/*" { capabilities = ["read", "update"] }'));
    expect(await status(update.secrets('PATCH', 'secret/data/app/db', { headers: MERGE_PATCH, body: { data: { extra: 'x' } } }))).toBe(403);
    const patch = ts.client(await tokenWithPolicy(ts, 'pat', 'path "secret/data/*" { capabilities = ["read", "patch"] }'));
    const res = await patch.secrets('PATCH', 'secret/data/app/db', { headers: MERGE_PATCH, body: { data: { extra: 'x' } } });
    expect((await patch.secrets('GET', 'secret/data/app/db'))!.data).toMatchObject({ data: { extra: 'x' }, metadata: { version: res!.data!.version } });
  });

  it('create writes only a new key, update only an existing one', async () => {
    const create = ts.client(await tokenWithPolicy(ts, 'cre', 'path "secret/data/*" { capabilities = ["create"] }'));
    expect((await create.secrets('POST', 'secret/data/new-one', { body: { data: { a: 1 } } }))!.data!.version).toBe(1);
    expect(await status(create.secrets('POST', 'secret/data/new-one', { body: { data: { a: 2 } } }))).toBe(403);
    const v1 = ts.client(await tokenWithPolicy(ts, 'v1-upd', 'path "plain/*" { capabilities = ["update", "read"] }'));
    expect(await status(v1.secrets('POST', 'plain/fresh', { body: { a: 1 } }))).toBe(403);
    await ts.client().secrets('POST', 'plain/fresh', { body: { a: 1 } });
    expect(await v1.secrets('POST', 'plain/fresh', { body: { a: 2 } })).toBeUndefined();
  });

  it('sys/mounts/* governs enabling and disabling engines', async () => {
    const none = ts.client(await tokenWithPolicy(ts, 'no-mounts', 'path "secret/*" { capabilities = ["read"] }'));
    expect(await status(none.secrets('POST', 'sys/mounts/mine', { body: { type: 'kv' } }))).toBe(403);
    const admin = ts.client(await tokenWithPolicy(ts, 'mounts', 'path "sys/mounts/*" { capabilities = ["create", "update", "delete", "read"] }'));
    await admin.secrets('POST', 'sys/mounts/mine', { body: { type: 'kv' } });
    expect((await admin.secrets('GET', 'sys/mounts/mine'))!.data!.type).toBe('kv');
    await admin.secrets('DELETE', 'sys/mounts/mine');
  });
});
