import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let ts: InProcessServer;
let c: ApiClient;
let accessor: string;
let entityId: string;
let aliasId: string;

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

const lookup = (body: Record<string, unknown>, client = c) => client.secrets('POST', 'identity/lookup/entity', { body });

async function tokenWith(policy: string): Promise<string> {
  await c.secrets('PUT', `sys/policies/acl/${policy.length}`, { body: { policy } });
  const res = await c.secrets('POST', 'auth/token/create', { body: { policies: [String(policy.length)] } });
  return res!.auth!.client_token as string;
}

beforeAll(async () => {
  ts = await startInProcessServer();
  c = ts.client();
  await c.secrets('POST', 'sys/auth/lookup-mount', { body: { type: 'cloud' } });
  accessor = ((await c.secrets('GET', 'sys/auth'))!.data!['lookup-mount/'] as { accessor: string }).accessor;
  entityId = (await c.secrets('POST', 'identity/entity', { body: { name: 'carol', policies: ['dev'] } }))!.data!.id as string;
  aliasId = (await c.secrets('POST', 'identity/entity-alias', { body: { name: 'carol@ci', canonical_id: entityId, mount_accessor: accessor } }))!.data!.id as string;
});

afterAll(async () => {
  await ts?.close();
});

describe('identity/lookup/entity', () => {
  it('answers the entity as identity/entity/id/:id reads it, by each criterion', async () => {
    const read = (await c.secrets('GET', `identity/entity/id/${entityId}`))!.data;
    for (const body of [{ id: entityId }, { name: 'carol' }, { alias_id: aliasId }, { alias_name: 'carol@ci', alias_mount_accessor: accessor }]) {
      expect((await lookup(body))!.data).toEqual(read);
    }
  });

  it('answers 204 no content when nothing matches', async () => {
    const answer = await c.request('POST', '/v1/identity/lookup/entity', { body: { name: 'nobody' } });
    expect(answer.status).toBe(204);
    expect(answer.body.length).toBe(0);
    expect(await lookup({ alias_name: 'carol@ci', alias_mount_accessor: 'auth_cloud_00000000' })).toBeUndefined();
    expect(await lookup({ alias_id: 'no-such-alias' })).toBeUndefined();
  });

  it('refuses no criterion, two criteria, and half the alias pair with 400', async () => {
    expect(await apiError(lookup({}))).toMatchObject({ statusCode: 400, errors: [expect.stringMatching(/^one of "id", "name", "alias_id" or a pair/)] });
    expect(await apiError(lookup({ id: entityId, name: 'carol' }))).toMatchObject({ statusCode: 400, errors: [expect.stringMatching(/^only one of/)] });
    expect(await apiError(lookup({ id: entityId, alias_name: 'carol@ci', alias_mount_accessor: accessor }))).toMatchObject({ statusCode: 400 });
    expect(await apiError(lookup({ alias_name: 'carol@ci' }))).toMatchObject({ statusCode: 400, errors: ['alias_name and alias_mount_accessor must both be supplied'] });
  });

  it('needs the update capability on identity/lookup/entity', async () => {
    const reader = ts.client(await tokenWith('path "identity/lookup/entity" { capabilities = ["read"] }'));
    expect(await apiError(lookup({ name: 'carol' }, reader))).toMatchObject({ statusCode: 403 });
    const updater = ts.client(await tokenWith('path "identity/lookup/entity" { capabilities = ["update"] }'));
    expect((await lookup({ name: 'carol' }, updater))!.data!.id).toBe(entityId);
  });
});
