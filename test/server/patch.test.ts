import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';
import { ApiError } from '../../src/shared/errors.js';

let ts: InProcessServer;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ApiError);

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

describe('HTTP PATCH on the secrets API', () => {
  it('merges the given fields over an entity and keeps the others; null removes one', async () => {
    const created = await ts.client().secrets('POST', 'identity/entity', { body: { name: 'builder', policies: ['a'], metadata: { team: 'x', site: 'y' } } });
    const id = created!.data!.id as string;
    await ts.client().secrets('PATCH', `identity/entity/id/${id}`, { body: { policies: ['b'], metadata: { site: null, env: 'prod' } }, headers: MERGE });
    const read = (await ts.client().secrets('GET', `identity/entity/id/${id}`))!.data!;
    expect(read).toMatchObject({ name: 'builder', policies: ['b'], metadata: { team: 'x', env: 'prod' } });
    expect(read.metadata).not.toHaveProperty('site');
    await ts.client().secrets('PATCH', 'identity/entity/name/builder', { body: { disabled: true }, headers: MERGE });
    expect((await ts.client().secrets('GET', `identity/entity/id/${id}`))!.data).toMatchObject({ disabled: true, policies: ['b'] });
  });

  it('patches a policy, and answers 404 for one that does not exist', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/p1', { body: { policy: 'path "a/*" {\n  capabilities = ["read"]\n}\n' } });
    await ts.client().secrets('PATCH', 'sys/policies/acl/p1', { body: { policy: 'path "b/*" {\n  capabilities = ["list"]\n}\n' }, headers: MERGE });
    expect((await ts.client().secrets('GET', 'sys/policies/acl/p1'))!.data!.policy).toContain('"b/*"');
    expect((await failure(ts.client().secrets('PATCH', 'sys/policies/acl/none', { body: { policy: 'x' }, headers: MERGE })))?.statusCode).toBe(404);
  });

  it('answers 405 on a path that does not declare PATCH', async () => {
    const err = await failure(ts.client().secrets('PATCH', 'sys/auth/token', { body: { description: 'x' }, headers: MERGE }));
    expect(err?.statusCode).toBe(405);
    expect(err?.errors).toEqual(['sys/auth/token does not support PATCH']);
  });

  it('needs the patch capability: update alone is refused', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/p2', { body: { policy: 'path "x/*" {\n  capabilities = ["read"]\n}\n' } });
    await ts.client().secrets('PUT', 'sys/policies/acl/updater', { body: { policy: 'path "sys/policies/acl/p2" {\n  capabilities = ["read", "update"]\n}\n' } });
    await ts.client().secrets('PUT', 'sys/policies/acl/patcher', { body: { policy: 'path "sys/policies/acl/p2" {\n  capabilities = ["read", "patch"]\n}\n' } });
    const token = async (p: string) => (await ts.client().secrets('POST', 'auth/token/create', { body: { policies: [p] } }))!.auth!.client_token as string;
    const body = { body: { policy: 'path "y/*" {\n  capabilities = ["read"]\n}\n' }, headers: MERGE };
    expect((await failure(ts.client(await token('updater')).secrets('PATCH', 'sys/policies/acl/p2', body)))?.statusCode).toBe(403);
    await ts.client(await token('patcher')).secrets('PATCH', 'sys/policies/acl/p2', body);
    expect((await ts.client().secrets('GET', 'sys/policies/acl/p2'))!.data!.policy).toContain('"y/*"');
  });
});
