/**
 * Names and IDs become storage keys, which LMDB limits to 1,978 bytes. Whatever the caller sends, an
 * over-long one is a 400 that names it — from the path, the query or the body, on both APIs — never a
 * 500, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEY_PART_BYTES } from '../../src/shared/key-length.js';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';

let ts: InProcessServer;
beforeAll(async () => {
  ts = await startInProcessServer();
});
afterAll(async () => {
  await ts?.close();
});

interface Answer {
  status: number;
  text: string;
}

async function call(method: string, path: string, opts: { body?: unknown; query?: Record<string, string> } = {}): Promise<Answer> {
  const a = await ts.client().request(method, path, opts);
  return { status: a.status, text: a.body.toString('utf8') };
}

const long = (n: number) => 'x'.repeat(n);
const job = (id: string) => ({ ID: id, Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: 'true' } }] }] });

describe('over-long names and IDs', () => {
  it('secrets API: a body field, a path segment and an accessor are refused naming them', async () => {
    const entity = await call('POST', '/v1/identity/entity', { body: { name: long(5000) } });
    expect(entity.status).toBe(400);
    expect(JSON.parse(entity.text).errors).toEqual([`field "name" is too long: 5000 bytes (at most ${MAX_KEY_PART_BYTES})`]);
    const accessor = await call('POST', '/v1/auth/token/lookup-accessor', { body: { accessor: long(1024 * 1024) } });
    expect(accessor.status).toBe(400);
    expect(JSON.parse(accessor.text).errors[0]).toMatch(/^field "accessor" is too long: 1048576 bytes/);
    expect((await call('POST', '/v1/sys/auth/cloud', { body: { type: 'cloud' } })).status).toBe(204);
    const denylist = await call('POST', `/v1/auth/cloud/roletag-denylist/${long(4096)}`, { body: {} });
    expect(denylist.status).toBe(400);
    expect(JSON.parse(denylist.text).errors[0]).toMatch(/^path parameter "role_tag" is too long: 4096 bytes/);
    const policy = await call('PUT', `/v1/sys/policies/acl/${long(3000)}`, { body: { policy: '' } });
    expect(policy.status).toBe(400);
    // Multi-byte characters count in bytes: 200 of them are 600 bytes.
    const wide = await call('POST', '/v1/identity/entity', { body: { name: 'é'.repeat(300) } });
    expect(JSON.parse(wide.text).errors).toEqual([`field "name" is too long: 600 bytes (at most ${MAX_KEY_PART_BYTES})`]);
    // At the limit is accepted.
    expect((await call('POST', '/v1/identity/entity', { body: { name: long(MAX_KEY_PART_BYTES) } })).status).toBe(200);
  });

  it('scheduler API: a query parameter and a path segment are refused naming them', async () => {
    const ns = await call('GET', '/v1/jobs', { query: { namespace: long(2000) } });
    expect(ns).toEqual({ status: 400, text: `query parameter "namespace" is too long: 2000 bytes (at most ${MAX_KEY_PART_BYTES})` });
    const prefix = await call('GET', '/v1/allocations', { query: { prefix: 'ab'.repeat(1000) } });
    expect(prefix.status).toBe(400);
    const path = await call('GET', `/v1/job/${long(3000)}`);
    expect(path).toEqual({ status: 400, text: `job_id is too long: 3000 bytes (at most ${MAX_KEY_PART_BYTES})` });
  });

  it('scheduler API: an over-long ID in a body is a 400, and nothing is stored', async () => {
    const reg = await call('POST', '/v1/jobs', { body: { Job: job(long(3000)) } });
    expect(reg.status).toBe(400);
    expect(reg.text).toContain(`Job ID is too long: 3000 bytes (at most ${MAX_KEY_PART_BYTES})`);
    const nsApply = await call('POST', `/v1/namespace/${long(600)}`, { body: { Name: long(600) } });
    expect(nsApply.status).toBe(400);
    const jobs = JSON.parse((await call('GET', '/v1/jobs')).text) as unknown[];
    expect(jobs).toEqual([]);
  });
});
