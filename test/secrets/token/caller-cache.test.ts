/**
 * A request's caller (token entry and ACL) is made once and kept while the tables it is read from stand
 * still: every change that could refuse or widen a token holds from the very next request on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { statusOf } from '../../support/wait.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { ACCESSORS_TABLE } from '../../../src/secrets/token/token-store.js';

let srv: InProcessServer;
let root: ApiClient;

async function create(body: Record<string, unknown>): Promise<{ token: string; accessor: string }> {
  const res = await root.secrets('POST', 'auth/token/create', { body });
  return { token: res!.auth!.client_token as string, accessor: res!.auth!.accessor as string };
}

const status = async (p: Promise<unknown>): Promise<number> => (await statusOf(p)).code;

const lookupSelf = (token: string) => status(srv.client(token).secrets('GET', 'auth/token/lookup-self'));
const readMounts = (token: string) => status(srv.client(token).secrets('GET', 'sys/mounts'));
const putPolicy = (name: string, policy: string) => root.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy } });

beforeAll(async () => {
  srv = await startInProcessServer();
  root = srv.client();
});

afterAll(async () => {
  await srv?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the caller made for a token', () => {
  it('is refused on the request right after its token is revoked', async () => {
    const { token, accessor } = await create({ policies: 'default' });
    expect(await lookupSelf(token)).toBe(200);
    expect(await lookupSelf(token)).toBe(200);
    await root.secrets('POST', 'auth/token/revoke-accessor', { body: { accessor } });
    expect(await lookupSelf(token)).toBe(403);
  });

  it("follows an edit of its policy on the next request, both ways", async () => {
    await putPolicy('mounts-reader', 'path "sys/policy" { capabilities = ["read"] }');
    const { token } = await create({ policies: 'mounts-reader' });
    expect(await readMounts(token)).toBe(403);
    expect(await readMounts(token)).toBe(403);
    await putPolicy('mounts-reader', 'path "sys/mounts" { capabilities = ["read"] }');
    expect(await readMounts(token)).toBe(200);
    expect(await readMounts(token)).toBe(200);
    await putPolicy('mounts-reader', 'path "sys/policy" { capabilities = ["read"] }');
    expect(await readMounts(token)).toBe(403);
  });

  it('follows a deleted policy on the next request', async () => {
    await putPolicy('mounts-gone', 'path "sys/mounts" { capabilities = ["read"] }');
    const { token } = await create({ policies: 'mounts-gone' });
    expect(await readMounts(token)).toBe(200);
    await root.secrets('DELETE', 'sys/policies/acl/mounts-gone');
    expect(await readMounts(token)).toBe(403);
  });

  it('is refused once its TTL is over, and the expired token is revoked', async () => {
    const { token, accessor } = await create({ policies: 'default', ttl: '1h' });
    expect(await lookupSelf(token)).toBe(200);
    expect(await lookupSelf(token)).toBe(200);
    // Nothing is written when a TTL runs out: only the clock says the token is over.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3601_000);
    expect(await lookupSelf(token)).toBe(403);
    expect(srv.server.services.store.get(ACCESSORS_TABLE, accessor)).toBeUndefined();
  });

  it('is refused from outside its bound CIDRs right after it was allowed from inside them', async () => {
    const { token } = await create({ policies: 'default', bound_cidrs: '127.0.0.1/32', ttl: '1h' });
    const from = async (remoteAddress: string) => {
      const raw = { method: 'GET', path: '/v1/auth/token/lookup-self', query: new URLSearchParams(), headers: { 'x-vault-token': token }, body: Buffer.alloc(0), remoteAddress };
      return (await srv.server.handle(raw)).status;
    };
    expect(await from('127.0.0.1')).toBe(200);
    expect(await from('127.0.0.1')).toBe(200);
    expect(await from('10.0.0.1')).toBe(403);
    expect(await from('127.0.0.1')).toBe(200);
  });

  it('counts every use of a limited-use token and refuses it after the last', async () => {
    const { token } = await create({ policies: 'default', num_uses: 2 });
    expect(await lookupSelf(token)).toBe(200);
    expect(await lookupSelf(token)).toBe(200);
    expect(await lookupSelf(token)).toBe(403);
  });

  it("follows its entity's policies, its group's and its disabling on the next request", async () => {
    await putPolicy('entity-mounts', 'path "sys/mounts" { capabilities = ["read"] }');
    await root.secrets('POST', 'auth/token/roles/cached', { body: { allowed_entity_aliases: 'cached-*' } });
    const auth = (await root.secrets('POST', 'auth/token/create/cached', { body: { policies: 'default', entity_alias: 'cached-one' } }))!.auth!;
    const token = auth.client_token as string;
    const entityId = auth.entity_id as string;
    expect(await readMounts(token)).toBe(403);
    await root.secrets('POST', `identity/entity/id/${entityId}`, { body: { policies: 'entity-mounts' } });
    expect(await readMounts(token)).toBe(200);
    await root.secrets('POST', `identity/entity/id/${entityId}`, { body: { policies: '' } });
    expect(await readMounts(token)).toBe(403);
    const group = await root.secrets('POST', 'identity/group', { body: { name: 'cached-group', policies: 'entity-mounts', member_entity_ids: entityId } });
    expect(await readMounts(token)).toBe(200);
    await root.secrets('DELETE', `identity/group/id/${group!.data!.id as string}`);
    expect(await readMounts(token)).toBe(403);
    await root.secrets('POST', `identity/entity/id/${entityId}`, { body: { disabled: true } });
    expect(await lookupSelf(token)).toBe(403);
  });
});

describe('the caller a scheduler route is served to, from the same cache', () => {
  /** The scheduler's answer to the token's own lookup, as Nomad words a refusal. */
  const tokenSelf = async (token: string, remoteAddress = '127.0.0.1') => {
    const raw = { method: 'GET', path: '/v1/acl/token/self', query: new URLSearchParams(), headers: { 'x-nomad-token': token }, body: Buffer.alloc(0), remoteAddress };
    const answer = await srv.server.handle(raw);
    return answer.status === 200 ? 200 : `${answer.status} ${String(answer.body)}`;
  };

  it('is refused on the request right after its token is revoked, as a token not found', async () => {
    const { token, accessor } = await create({ policies: 'default' });
    // The secrets side made the caller first: the scheduler side is served the same one.
    expect(await lookupSelf(token)).toBe(200);
    expect(await tokenSelf(token)).toBe(200);
    await root.secrets('POST', 'auth/token/revoke-accessor', { body: { accessor } });
    expect(await tokenSelf(token)).toBe('403 ACL token not found');
  });

  it('is refused from outside its bound CIDRs right after it was allowed from inside them', async () => {
    const { token } = await create({ policies: 'default', bound_cidrs: '127.0.0.1/32', ttl: '1h' });
    expect(await tokenSelf(token)).toBe(200);
    expect(await tokenSelf(token, '10.0.0.1')).toBe('403 ACL token not found');
    expect(await tokenSelf(token)).toBe(200);
  });

  it('counts every use of a limited-use token and refuses it after the last', async () => {
    const { token } = await create({ policies: 'default', num_uses: 2 });
    expect(await tokenSelf(token)).toBe(200);
    expect(await tokenSelf(token)).toBe(200);
    expect(await tokenSelf(token)).toBe('403 ACL token not found');
  });

  it("is refused once its entity is disabled, as a token not permitted", async () => {
    await root.secrets('POST', 'auth/token/roles/scheduler-cached', { body: { allowed_entity_aliases: 'scheduler-cached-*' } });
    const auth = (await root.secrets('POST', 'auth/token/create/scheduler-cached', { body: { policies: 'default', entity_alias: 'scheduler-cached-one' } }))!.auth!;
    const token = auth.client_token as string;
    expect(await tokenSelf(token)).toBe(200);
    await root.secrets('POST', `identity/entity/id/${auth.entity_id as string}`, { body: { disabled: true } });
    expect(await tokenSelf(token)).toBe('403 Permission denied');
  });
});
