import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { ACCESSORS_TABLE, TokenStore } from '../../../src/secrets/token/token-store.js';

let srv: InProcessServer;
let root: ApiClient;

async function create(body: Record<string, unknown>, client = root): Promise<{ token: string; accessor: string }> {
  const res = await client.secrets('POST', 'auth/token/create', { body });
  return { token: res!.auth!.client_token as string, accessor: res!.auth!.accessor as string };
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof ApiError) return err.statusCode;
    throw err;
  }
}

const lookupSelf = (token: string) => srv.client(token).secrets('GET', 'auth/token/lookup-self');
const accessorRow = (accessor: string) => srv.server.services.store.get<string>(ACCESSORS_TABLE, accessor);

beforeAll(async () => {
  srv = await startInProcessServer();
  root = srv.client();
  await root.secrets('PUT', 'sys/policies/acl/creator', { body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' } });
});

afterAll(async () => {
  await srv?.close();
});

describe('TTL', () => {
  it('is enforced on the next request after expiry, which also revokes the token', async () => {
    const { token, accessor } = await create({ policies: 'default', ttl: '1s' });
    expect(await status(lookupSelf(token))).toBe(200);
    await sleep(1500);
    expect(await status(lookupSelf(token))).toBe(403);
    expect(accessorRow(accessor)).toBeUndefined();
  });

  it('expired tokens, and their children, are removed by the sweep', async () => {
    const parent = await create({ policies: 'creator', ttl: '1s' });
    const child = await create({ policies: 'default', ttl: '1h' }, srv.client(parent.token));
    const bystander = await create({ policies: 'default', ttl: '1h' });
    await sleep(1500);
    // Not used since it expired, so only the sweep can remove it.
    expect(accessorRow(parent.accessor)).toBeDefined();
    const tokens = srv.server.services.tokens as TokenStore;
    expect(await tokens.sweepExpired()).toBeGreaterThanOrEqual(2);
    expect(accessorRow(parent.accessor)).toBeUndefined();
    expect(accessorRow(child.accessor)).toBeUndefined();
    expect(accessorRow(bystander.accessor)).toBeDefined();
    expect(await status(lookupSelf(child.token))).toBe(403);
  });

  it('an expired token is not found by lookup or by accessor', async () => {
    const { token, accessor } = await create({ policies: 'default', ttl: '1s' });
    await sleep(1500);
    expect(await status(root.secrets('POST', 'auth/token/lookup', { body: { token } }))).toBe(403);
    expect(await status(root.secrets('POST', 'auth/token/lookup-accessor', { body: { accessor } }))).toBe(400);
  });
});

describe('num_uses', () => {
  it('a 2-use token works twice, then is refused', async () => {
    const { token, accessor } = await create({ policies: 'default', num_uses: 2 });
    expect((await lookupSelf(token))!.data!.num_uses).toBe(1);
    expect((await lookupSelf(token))!.data!.num_uses).toBe(0);
    expect(await status(lookupSelf(token))).toBe(403);
    expect(accessorRow(accessor)).toBeUndefined();
  });

  it('a 1-use token used by concurrent requests works exactly once', async () => {
    const { token } = await create({ policies: 'default', num_uses: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, () => status(lookupSelf(token))));
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 403)).toHaveLength(5);
  });

  it('a limited-use token cannot create tokens', async () => {
    const { token } = await create({ policies: 'creator', num_uses: 5 });
    const err = await srv.client(token).secrets('POST', 'auth/token/create', { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).errors).toEqual(['restricted use token cannot generate child tokens']);
  });
});

describe('bound_cidrs', () => {
  it('a token bound to the loopback address works from the test', async () => {
    const { token } = await create({ policies: 'default', bound_cidrs: '127.0.0.1/32' });
    expect(await status(lookupSelf(token))).toBe(200);
  });

  it('a token bound elsewhere is refused', async () => {
    const { token } = await create({ policies: 'default', bound_cidrs: ['10.0.0.0/8'] });
    expect(await status(lookupSelf(token))).toBe(403);
    // Root can still see it: the binding is about where it is used from.
    expect(await status(root.secrets('POST', 'auth/token/lookup', { body: { token } }))).toBe(200);
  });

  it("a child inherits its parent's binding and cannot replace it", async () => {
    const parent = await create({ policies: 'creator', bound_cidrs: '127.0.0.1/32' });
    const child = await create({ policies: 'default' }, srv.client(parent.token));
    expect((await lookupSelf(child.token))!.data!.bound_cidrs).toEqual(['127.0.0.1/32']);
    expect(await status(create({ policies: 'default', bound_cidrs: '0.0.0.0/0' }, srv.client(parent.token)))).toBe(400);
  });

  it('an orphan made by a bound token without sudo stays bound too', async () => {
    await root.secrets('PUT', 'sys/policies/acl/orphan-maker', {
      body: { policy: 'path "auth/token/create-orphan" { capabilities = ["update"] }\npath "auth/token/lookup-self" { capabilities = ["read"] }' },
    });
    const parent = await create({ policies: 'orphan-maker', bound_cidrs: '127.0.0.1/32' });
    const answer = await srv.client(parent.token).secrets('POST', 'auth/token/create-orphan', { body: { policies: ['default'] } });
    const orphan = String(answer?.auth?.client_token);
    expect((await lookupSelf(orphan))!.data!.bound_cidrs).toEqual(['127.0.0.1/32']);
  });
});
