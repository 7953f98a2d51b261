import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { MERGE_PATCH, apiError, freshMount } from './kv-helpers.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

const kv = () => ts.client();
const put = (mount: string, key: string, data: Record<string, unknown>, options?: Record<string, unknown>) =>
  kv().secrets('POST', `${mount}/data/${key}`, { body: { data, ...(options ? { options } : {}) } });
const get = async (mount: string, key: string, version?: number) =>
  ts.request('GET', `/v1/${mount}/data/${key}${version ? `?version=${version}` : ''}`);
const metadata = async (mount: string, key: string) => (await kv().secrets('GET', `${mount}/metadata/${key}`))!.data as Record<string, any>;

describe('kv v2 data/', () => {
  it('writes versions and reads the latest or a given one, in Vault\'s shape', async () => {
    const m = await freshMount(ts, 2);
    const first = await put(m, 'db', { password: 'one' });
    expect(first!.data).toEqual({ created_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), custom_metadata: null, deletion_time: '', destroyed: false, version: 1 });
    await put(m, 'db', { password: 'two', user: 'app' });
    const latest = await get(m, 'db');
    expect(latest.status).toBe(200);
    expect((latest.body as any).data).toEqual({
      data: { password: 'two', user: 'app' },
      metadata: { created_time: expect.any(String), custom_metadata: null, deletion_time: '', destroyed: false, version: 2 },
    });
    expect(((await get(m, 'db', 1)).body as any).data.data).toEqual({ password: 'one' });
  });

  it('answers a bare 404 for a key or a version that never was', async () => {
    const m = await freshMount(ts, 2);
    expect((await get(m, 'nothing')).status).toBe(404);
    await put(m, 'k', { a: 1 });
    const missing = await get(m, 'k', 7);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [] });
  });

  it('answers a version 1 path with a 404 that names the command to use, as Vault does', async () => {
    const m = await freshMount(ts, 2);
    const res = await ts.request('GET', `/v1/${m}/db`);
    expect(res.status).toBe(404);
    expect((res.body as any).warnings).toEqual([
      "Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the svc CLI, use 'svc kv get' for this operation.",
    ]);
    expect(((await ts.request('POST', `/v1/${m}/db`, { body: { a: 1 } })).body as any).warnings[0]).toMatch(/use 'svc kv put'/);
  });

  it('answers an operation on the root of data/, metadata/, delete/, undelete/ or destroy/ other than a LIST with Vault\'s 404', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 'app/db', { a: 1 });
    const ROOT = ['Non-listing operations on the root of a K/V v2 mount are not supported.'];
    for (const root of ['data', 'data/', 'metadata', 'metadata/', 'delete', 'undelete/', 'destroy']) {
      const read = await ts.request('GET', `/v1/${m}/${root}`);
      expect(read.status, root).toBe(404);
      expect(read.body, root).toMatchObject({ data: null, warnings: ROOT });
    }
    for (const [method, body] of [['POST', { data: { a: 1 } }], ['DELETE', undefined]] as const) {
      const res = await ts.request(method, `/v1/${m}/metadata`, { body });
      expect(res.status).toBe(404);
      expect((res.body as any).warnings[0]).toBe(ROOT[0]);
    }
    // A LIST is what the root of metadata/ is for.
    expect((await kv().secrets('LIST', `${m}/metadata/`))!.data!.keys).toEqual(['app/']);
    expect((await kv().secrets('GET', `${m}/data/app/db`))!.data!.data).toEqual({ a: 1 });
  });

  it('refuses a write without data', async () => {
    const m = await freshMount(ts, 2);
    expect((await apiError(kv().secrets('POST', `${m}/data/k`, { body: { options: {} } }))).errors).toEqual(['no data provided']);
  });

  it('checks options.cas against the current version (0 for a new key)', async () => {
    const m = await freshMount(ts, 2);
    expect((await put(m, 'c', { v: 1 }, { cas: 0 }))!.data!.version).toBe(1);
    const stale = await apiError(put(m, 'c', { v: 2 }, { cas: 0 }));
    expect(stale.statusCode).toBe(400);
    expect(stale.errors).toEqual(['check-and-set parameter did not match the current version']);
    expect((await put(m, 'c', { v: 2 }, { cas: 1 }))!.data!.version).toBe(2);
    expect((await metadata(m, 'c')).current_version).toBe(2);
  });

  it('requires cas when the key or the mount says so', async () => {
    const m = await freshMount(ts, 2);
    await kv().secrets('POST', `${m}/metadata/strict`, { body: { cas_required: true } });
    expect((await apiError(put(m, 'strict', { a: 1 }))).errors).toEqual(['check-and-set parameter required for this call']);
    expect((await put(m, 'strict', { a: 1 }, { cas: 0 }))!.data!.version).toBe(1);
    await put(m, 'loose', { a: 1 });
    await kv().secrets('POST', `${m}/config`, { body: { cas_required: true } });
    expect((await apiError(put(m, 'loose', { a: 2 }))).errors).toEqual(['check-and-set parameter required for this call']);
    const res = await kv().secrets('POST', `${m}/metadata/loose`, { body: { cas_required: false } });
    expect(res!.warnings).toEqual(['"cas_required" set to false, but is mandated by backend config. This value will be ignored.']);
  });

  it('keeps max_versions versions, dropping the oldest data and metadata as Vault does', async () => {
    const m = await freshMount(ts, 2);
    await kv().secrets('POST', `${m}/metadata/rot`, { body: { max_versions: 3 } });
    for (let i = 1; i <= 5; i++) await put(m, 'rot', { n: i });
    const meta = await metadata(m, 'rot');
    expect(Object.keys(meta.versions).sort()).toEqual(['3', '4', '5']);
    expect(meta.oldest_version).toBe(3);
    expect(meta.current_version).toBe(5);
    expect((await get(m, 'rot', 2)).status).toBe(404);
    expect(((await get(m, 'rot', 3)).body as any).data.data).toEqual({ n: 3 });
  });

  it('keeps 10 versions when neither the key nor the mount says, the mount\'s config otherwise', async () => {
    const m = await freshMount(ts, 2);
    for (let i = 1; i <= 11; i++) await put(m, 'ten', { n: i });
    expect(Object.keys((await metadata(m, 'ten')).versions)).toHaveLength(10);
    await kv().secrets('POST', `${m}/config`, { body: { max_versions: 2 } });
    await put(m, 'two', { n: 1 });
    await put(m, 'two', { n: 2 });
    await put(m, 'two', { n: 3 });
    expect(Object.keys((await metadata(m, 'two')).versions).sort()).toEqual(['2', '3']);
    expect(((await kv().secrets('GET', `${m}/config`))!.data)).toEqual({ cas_required: false, delete_version_after: '0s', max_versions: 2 });
  });

  it('soft-deletes the latest version: 404 with its metadata and data null, until undelete', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 'soft', { secret: 'x' });
    await kv().secrets('DELETE', `${m}/data/soft`);
    const gone = await get(m, 'soft');
    expect(gone.status).toBe(404);
    expect((gone.body as any).data).toEqual({
      data: null,
      metadata: { created_time: expect.any(String), custom_metadata: null, deletion_time: expect.stringMatching(/T/), destroyed: false, version: 1 },
    });
    await kv().secrets('POST', `${m}/undelete/soft`, { body: { versions: [1] } });
    expect(((await get(m, 'soft')).body as any).data.data).toEqual({ secret: 'x' });
  });

  it('deletes and destroys given versions; a destroyed version cannot come back, and numbering goes on', async () => {
    const m = await freshMount(ts, 2);
    for (let i = 1; i <= 3; i++) await put(m, 'd', { n: i });
    await kv().secrets('POST', `${m}/delete/d`, { body: { versions: '1,2' } });
    expect((await get(m, 'd', 1)).status).toBe(404);
    expect((await get(m, 'd', 2)).status).toBe(404);
    await kv().secrets('PUT', `${m}/destroy/d`, { body: { versions: [2, 3] } });
    const destroyed = await get(m, 'd', 3);
    expect(destroyed.status).toBe(404);
    expect((destroyed.body as any).data.metadata).toMatchObject({ destroyed: true, version: 3 });
    await kv().secrets('POST', `${m}/undelete/d`, { body: { versions: [1, 2, 3] } });
    expect(((await get(m, 'd', 1)).body as any).data.data).toEqual({ n: 1 });
    expect((await get(m, 'd', 2)).status).toBe(404);
    expect((await put(m, 'd', { n: 4 }))!.data!.version).toBe(4);
    expect((await metadata(m, 'd')).versions['3']).toEqual({ created_time: expect.any(String), deletion_time: '', destroyed: true });
    expect((await apiError(kv().secrets('POST', `${m}/delete/d`, { body: {} }))).errors).toEqual(['no version number provided']);
  });

  it('sets deletion_time from delete_version_after, the shorter of the key\'s and the mount\'s', async () => {
    const m = await freshMount(ts, 2);
    await kv().secrets('POST', `${m}/config`, { body: { delete_version_after: '2h' } });
    await kv().secrets('POST', `${m}/metadata/t`, { body: { delete_version_after: '1h' } });
    const written = (await put(m, 't', { a: 1 }))!.data as Record<string, string>;
    expect(Date.parse(written.deletion_time) - Date.parse(written.created_time)).toBe(3600_000);
    const other = (await put(m, 'u', { a: 1 }))!.data as Record<string, string>;
    expect(Date.parse(other.deletion_time) - Date.parse(other.created_time)).toBe(7200_000);
    expect((await metadata(m, 't')).delete_version_after).toBe('1h0m0s');
    // Still readable: the deletion time is in the future.
    expect((await get(m, 't')).status).toBe(200);
  });

  it('PATCH merges into the latest version as a new one (merge patch: null removes), with cas', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 'p', { keep: 'k', drop: 'd', nested: { a: 1, b: 2 } });
    const res = await kv().secrets('PATCH', `${m}/data/p`, { headers: MERGE_PATCH, body: { data: { drop: null, nested: { b: 3 }, add: 'n' }, options: { cas: 1 } } });
    expect(res!.data!.version).toBe(2);
    expect(((await get(m, 'p')).body as any).data.data).toEqual({ keep: 'k', nested: { a: 1, b: 3 }, add: 'n' });
    expect((await apiError(kv().secrets('PATCH', `${m}/data/p`, { headers: MERGE_PATCH, body: { data: { x: 1 }, options: { cas: 1 } } }))).errors).toEqual([
      'check-and-set parameter did not match the current version',
    ]);
    const wrongType = await apiError(kv().secrets('PATCH', `${m}/data/p`, { body: { data: { x: 1 } } }));
    expect(wrongType.statusCode).toBe(415);
    expect((await apiError(kv().secrets('PATCH', `${m}/data/none`, { headers: MERGE_PATCH, body: { data: { x: 1 } } }))).statusCode).toBe(404);
    await kv().secrets('DELETE', `${m}/data/p`);
    expect((await apiError(kv().secrets('PATCH', `${m}/data/p`, { headers: MERGE_PATCH, body: { data: { x: 1 } } }))).statusCode).toBe(404);
  });
});

describe('kv v2 metadata/', () => {
  it('answers a key\'s versions and settings in Vault\'s shape', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 'app/db', { p: 1 });
    await put(m, 'app/db', { p: 2 });
    expect(await metadata(m, 'app/db')).toEqual({
      cas_required: false,
      created_time: expect.any(String),
      current_version: 2,
      custom_metadata: null,
      delete_version_after: '0s',
      max_versions: 0,
      oldest_version: 0,
      updated_time: expect.any(String),
      versions: {
        '1': { created_time: expect.any(String), deletion_time: '', destroyed: false },
        '2': { created_time: expect.any(String), deletion_time: '', destroyed: false },
      },
    });
  });

  it('writes custom_metadata that data reads show, checks its limits, and PATCH merges it', async () => {
    const m = await freshMount(ts, 2);
    await kv().secrets('POST', `${m}/metadata/c`, { body: { custom_metadata: { owner: 'ops', tier: 'gold' } } });
    const created = await metadata(m, 'c');
    expect(created).toMatchObject({ current_version: 0, custom_metadata: { owner: 'ops', tier: 'gold' }, versions: {} });
    expect((await put(m, 'c', { a: 1 }))!.data!.custom_metadata).toEqual({ owner: 'ops', tier: 'gold' });
    await kv().secrets('PATCH', `${m}/metadata/c`, { headers: MERGE_PATCH, body: { custom_metadata: { tier: null, team: 'db' }, max_versions: 4 } });
    expect(await metadata(m, 'c')).toMatchObject({ custom_metadata: { owner: 'ops', team: 'db' }, max_versions: 4, current_version: 1 });
    const tooLong = await apiError(kv().secrets('POST', `${m}/metadata/c`, { body: { custom_metadata: { k: 'v'.repeat(513) } } }));
    expect(tooLong.errors[0]).toMatch(/^custom_metadata validation failed: length of value for key "k" is 513/);
    expect((await apiError(kv().secrets('PATCH', `${m}/metadata/none`, { headers: MERGE_PATCH, body: { max_versions: 1 } }))).statusCode).toBe(404);
  });

  it('LISTs keys and folders, at the top and below a path', async () => {
    const m = await freshMount(ts, 2);
    for (const k of ['a', 'dir/b', 'dir/sub/c', 'z']) await put(m, k, { v: 1 });
    expect((await kv().secrets('LIST', `${m}/metadata`))!.data!.keys).toEqual(['a', 'dir/', 'z']);
    expect((await kv().secrets('GET', `${m}/metadata/dir`, { query: { list: true } }))!.data!.keys).toEqual(['b', 'sub/']);
    expect((await apiError(kv().secrets('LIST', `${m}/metadata/nothing`))).statusCode).toBe(404);
  });

  it('a delete removes every version and the metadata', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 'gone', { v: 1 });
    await put(m, 'gone', { v: 2 });
    await kv().secrets('DELETE', `${m}/metadata/gone`);
    expect((await get(m, 'gone', 1)).status).toBe(404);
    expect((await apiError(kv().secrets('GET', `${m}/metadata/gone`))).statusCode).toBe(404);
    expect(ts.server.services.store.keys('kv_versions', `${ts.server.services.secretMounts.get(`${m}/`)!.uuid}/`)).toEqual([]);
    expect((await put(m, 'gone', { v: 3 }))!.data!.version).toBe(1);
  });
});

describe('kv v2 subkeys/', () => {
  it('answers the keys without values, to the depth asked', async () => {
    const m = await freshMount(ts, 2);
    await put(m, 's', { top: 'x', nested: { inner: { deep: 1 }, leaf: true }, list: [1, 2] });
    const all = await kv().secrets('GET', `${m}/subkeys/s`);
    expect(all!.data).toEqual({
      subkeys: { top: null, nested: { inner: { deep: null }, leaf: null }, list: null },
      metadata: { created_time: expect.any(String), custom_metadata: null, deletion_time: '', destroyed: false, version: 1 },
    });
    const one = await kv().secrets('GET', `${m}/subkeys/s`, { query: { depth: 1 } });
    expect(one!.data!.subkeys).toEqual({ top: null, nested: null, list: null });
    await kv().secrets('DELETE', `${m}/data/s`);
    const deleted = await ts.request('GET', `/v1/${m}/subkeys/s`);
    expect(deleted.status).toBe(404);
    expect((deleted.body as any).data.subkeys).toBeNull();
  });
});
