import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { apiError, freshMount } from './kv-helpers.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

describe('kv v1', () => {
  it('writes, reads, replaces and deletes a JSON object at any path', async () => {
    const m = await freshMount(ts, 1);
    const c = ts.client();
    expect(await c.secrets('POST', `${m}/app/db`, { body: { password: 'p1', port: 5432, nested: { a: true } } })).toBeUndefined();
    expect((await c.secrets('GET', `${m}/app/db`))!.data).toEqual({ password: 'p1', port: 5432, nested: { a: true } });
    await c.secrets('PUT', `${m}/app/db`, { body: { password: 'p2' } });
    expect((await c.secrets('GET', `${m}/app/db`))!.data).toEqual({ password: 'p2' });
    await c.secrets('DELETE', `${m}/app/db`);
    expect((await apiError(c.secrets('GET', `${m}/app/db`))).statusCode).toBe(404);
  });

  it('takes any keys without warning about them, and refuses an empty write', async () => {
    const m = await freshMount(ts, 1);
    const res = await ts.request('POST', `/v1/${m}/k`, { body: { anything: 'x' } });
    expect(res.status).toBe(204);
    expect((await apiError(ts.client().secrets('POST', `${m}/k`, { body: {} }))).errors).toEqual(['missing data fields']);
  });

  it('answers a read\'s lease_duration as Vault\'s passthrough: the secret\'s ttl, else its lease, else the mount\'s default TTL', async () => {
    const m = await freshMount(ts, 1);
    const c = ts.client();
    const leaseOf = async (key: string, body: Record<string, unknown>) => {
      await c.secrets('PUT', `${m}/${key}`, { body });
      const read = (await c.secrets('GET', `${m}/${key}`))!;
      expect(read).toMatchObject({ lease_id: '', renewable: false, data: body });
      return read.lease_duration;
    };
    expect(await leaseOf('hour', { v: 1, ttl: '1h' })).toBe(3600);
    expect(await leaseOf('seconds', { v: 1, ttl: 90 })).toBe(90);
    expect(await leaseOf('numeric', { v: 1, ttl: '45' })).toBe(45);
    expect(await leaseOf('both', { v: 1, ttl: '2m', lease: '1h' })).toBe(120);
    expect(await leaseOf('lease', { v: 1, lease: '30m' })).toBe(1800);
    // A ttl that is no duration leaves the mount's default, as Vault does, rather than failing the read.
    expect(await leaseOf('odd', { v: 1, ttl: 'soon' })).toBe(768 * 3600);
    expect(await leaseOf('plain', { v: 1 })).toBe(768 * 3600);
    await c.secrets('POST', `sys/mounts/${m}/tune`, { body: { default_lease_ttl: '10m' } });
    expect(await leaseOf('tuned', { v: 1 })).toBe(600);
    expect(await leaseOf('tuned-own', { v: 1, ttl: '1h' })).toBe(3600);
    // A LIST is no secret: it has no lease.
    expect((await c.secrets('LIST', `${m}/`))!.lease_duration).toBe(0);
  });

  it('LISTs with the LIST method or list=true: keys and folders right below', async () => {
    const m = await freshMount(ts, 1);
    const c = ts.client();
    for (const k of ['a', 'dir/b', 'dir/sub/c']) await c.secrets('POST', `${m}/${k}`, { body: { v: 1 } });
    expect((await c.secrets('LIST', `${m}/`))!.data!.keys).toEqual(['a', 'dir/']);
    expect((await c.secrets('GET', `${m}/dir`, { query: { list: true } }))!.data!.keys).toEqual(['b', 'sub/']);
    expect((await apiError(c.secrets('LIST', `${m}/none`))).statusCode).toBe(404);
  });
});
