import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient, SecretsEnvelope } from '../../../src/api/http/client.js';

let srv: InProcessServer;
let root: ApiClient;

async function create(body: Record<string, unknown>, client = root, path = 'auth/token/create'): Promise<{ token: string; accessor: string }> {
  const res = await client.secrets('POST', path, { body });
  return { token: res!.auth!.client_token as string, accessor: res!.auth!.accessor as string };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

const lookupSelf = (token: string) => srv.client(token).secrets('GET', 'auth/token/lookup-self');
async function alive(token: string): Promise<boolean> {
  try {
    await lookupSelf(token);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 403) return false;
    throw err;
  }
}
const post = (path: string, body?: Record<string, unknown>, client = root): Promise<SecretsEnvelope | undefined> => client.secrets('POST', `auth/token/${path}`, { body });

async function writePolicy(name: string, text: string): Promise<void> {
  await root.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
}

beforeAll(async () => {
  srv = await startInProcessServer();
  root = srv.client();
  await writePolicy('creator', 'path "auth/token/create" { capabilities = ["update"] }\npath "auth/token/create-orphan" { capabilities = ["update"] }');
  await writePolicy('lister', 'path "auth/token/accessors" { capabilities = ["list"] }');
  await writePolicy('lister-sudo', 'path "auth/token/accessors/" { capabilities = ["list", "sudo"] }');
  await writePolicy('orphaner', 'path "auth/token/revoke-orphan" { capabilities = ["update"] }');
  await writePolicy('orphaner-sudo', 'path "auth/token/revoke-orphan" { capabilities = ["update", "sudo"] }');
});

afterAll(async () => {
  await srv?.close();
});

describe('renew', () => {
  it('renew-self with an increment sets the TTL from now; the default policy allows it', async () => {
    const { token } = await create({ policies: 'default', ttl: '1h' });
    const res = await post('renew-self', { increment: '2h' }, srv.client(token));
    expect(res!.auth).toMatchObject({ client_token: token, lease_duration: 7200, renewable: true });
    const data = (await lookupSelf(token))!.data!;
    expect(data.ttl).toBeGreaterThan(3600);
    expect(data.creation_ttl).toBe(3600);
    expect(typeof data.last_renewal_time).toBe('number');
  });

  it('without an increment the token gets its current TTL again', async () => {
    const { token } = await create({ policies: 'default', ttl: '45m' });
    expect((await post('renew', { token }))!.auth!.lease_duration).toBe(2700);
  });

  it('is capped by the explicit max TTL, with a warning', async () => {
    const { token } = await create({ policies: 'default', ttl: '1h', explicit_max_ttl: '90m' });
    const res = await post('renew', { token, increment: '10h' });
    expect(res!.auth!.lease_duration).toBeLessThanOrEqual(5400);
    expect(res!.auth!.lease_duration).toBeGreaterThan(3600);
    expect(res!.warnings?.join('\n')).toMatch(/capped/);
  });

  it('is capped by the system max TTL', async () => {
    const { token } = await create({ policies: 'default', ttl: '1h' });
    expect((await post('renew', { token, increment: '2000h' }))!.auth!.lease_duration).toBeLessThanOrEqual(768 * 3600);
  });

  it('gives a periodic token its period whatever the increment', async () => {
    const { token } = await create({ policies: 'default', period: '30m' });
    expect((await post('renew', { token, increment: '10h' }))!.auth!.lease_duration).toBe(1800);
  });

  it('refuses tokens that are not renewable, root tokens included', async () => {
    const { token } = await create({ policies: 'default', renewable: false });
    expect((await failure(post('renew', { token }))).errors).toEqual(['lease is not renewable']);
    expect((await failure(post('renew', { token: srv.rootToken }))).errors).toEqual(['lease is not renewable']);
  });

  it('refuses unknown tokens and junk increments', async () => {
    const unknown = await failure(post('renew', { token: 'svc.nope' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.errors).toEqual(['token not found']);
    expect((await failure(post('renew', { token: 'x', increment: 'later' }))).errors.join('')).toMatch(/"increment"/);
    expect((await failure(post('renew', {}))).errors.join('')).toMatch(/"token"/);
  });

  it('renew-accessor renews without showing the token', async () => {
    const { token, accessor } = await create({ policies: 'default', ttl: '1h' });
    const res = await post('renew-accessor', { accessor, increment: '3h' });
    expect(res!.auth).toMatchObject({ client_token: '', accessor, lease_duration: 10800 });
    expect(await alive(token)).toBe(true);
    expect((await failure(post('renew-accessor', { accessor: 'nope' }))).errors).toEqual(['invalid accessor']);
  });
});

describe('revoke', () => {
  it('revokes the token and its children, but not orphans', async () => {
    const parent = await create({ policies: 'creator' });
    const child = await create({ policies: 'creator' }, srv.client(parent.token));
    const grandchild = await create({ policies: 'default' }, srv.client(child.token));
    const orphan = await create({ policies: 'default' }, srv.client(parent.token), 'auth/token/create-orphan');
    const bystander = await create({ policies: 'default' });
    expect(await post('revoke', { token: parent.token })).toBeUndefined();
    expect(await alive(parent.token)).toBe(false);
    expect(await alive(child.token)).toBe(false);
    expect(await alive(grandchild.token)).toBe(false);
    expect(await alive(orphan.token)).toBe(true);
    expect(await alive(bystander.token)).toBe(true);
  });

  it('revoking a token that does not exist is not an error', async () => {
    expect(await post('revoke', { token: 'svc.does-not-exist' })).toBeUndefined();
  });

  it('revoke-self revokes the caller and its children; the default policy allows it', async () => {
    const parent = await create({ policies: 'creator' });
    const child = await create({ policies: 'default' }, srv.client(parent.token));
    const self = await create({ policies: 'default' });
    expect(await post('revoke-self', undefined, srv.client(self.token))).toBeUndefined();
    expect(await alive(self.token)).toBe(false);
    await post('revoke-self', undefined, srv.client(parent.token));
    expect(await alive(child.token)).toBe(false);
  });

  it('revoke-accessor revokes by accessor, children included', async () => {
    const parent = await create({ policies: 'creator' });
    const child = await create({ policies: 'default' }, srv.client(parent.token));
    expect(await post('revoke-accessor', { accessor: parent.accessor })).toBeUndefined();
    expect(await alive(parent.token)).toBe(false);
    expect(await alive(child.token)).toBe(false);
    expect((await post('revoke-accessor', { accessor: parent.accessor }))!.warnings).toContain('No token found with this accessor');
  });

  it('revoke-orphan revokes only the token and orphans its children; it needs sudo', async () => {
    const parent = await create({ policies: 'creator' });
    const child = await create({ policies: 'default' }, srv.client(parent.token));

    const noSudo = srv.client((await create({ policies: 'orphaner' })).token);
    expect((await failure(post('revoke-orphan', { token: parent.token }, noSudo))).statusCode).toBe(403);

    const sudo = srv.client((await create({ policies: 'orphaner-sudo' })).token);
    expect(await post('revoke-orphan', { token: parent.token }, sudo)).toBeUndefined();
    expect(await alive(parent.token)).toBe(false);
    expect(await alive(child.token)).toBe(true);
    expect((await lookupSelf(child.token))!.data!.orphan).toBe(true);
    expect((await failure(post('revoke-orphan', { token: parent.token }))).errors).toEqual(['token to revoke not found']);
  });

  it('the default policy does not allow revoking other tokens', async () => {
    const victim = await create({ policies: 'default' });
    const caller = srv.client((await create({ policies: 'default' })).token);
    expect((await failure(post('revoke', { token: victim.token }, caller))).statusCode).toBe(403);
    expect(await alive(victim.token)).toBe(true);
  });
});

describe('lookup', () => {
  it('lookup answers another token with its id', async () => {
    const { token, accessor } = await create({ policies: 'default', ttl: '1h' });
    const data = (await post('lookup', { token }))!.data!;
    expect(data).toMatchObject({ id: token, accessor, policies: ['default'], path: 'auth/token/create', type: 'service', num_uses: 0 });
    expect(data.ttl).toBeGreaterThan(3500);
    expect(Date.parse(data.expire_time as string)).toBeGreaterThan(Date.now());
    expect(Date.parse(data.issue_time as string)).toBeLessThanOrEqual(Date.now());
  });

  it('GET lookup without a token answers the caller', async () => {
    const { token } = await create({ policies: 'default', ttl: '1h' });
    expect((await srv.client(token).secrets('GET', 'auth/token/lookup-self'))!.data!.id).toBe(token);
    expect((await root.secrets('GET', 'auth/token/lookup'))!.data!.id).toBe(srv.rootToken);
  });

  it('an unknown token is a 403 "bad token", as Vault answers', async () => {
    const err = await failure(post('lookup', { token: 'svc.unknown' }));
    expect(err.statusCode).toBe(403);
    expect(err.errors).toEqual(['bad token']);
  });

  it('lookup-accessor hides the id; unknown or missing accessors are 400s', async () => {
    const { accessor } = await create({ policies: 'default' });
    const data = (await post('lookup-accessor', { accessor }))!.data!;
    expect(data.id).toBe('');
    expect(data.accessor).toBe(accessor);
    expect((await failure(post('lookup-accessor', { accessor: 'nope' }))).errors).toEqual(['invalid accessor']);
    expect((await failure(post('lookup-accessor', {}))).statusCode).toBe(400);
  });

  it('the default policy reaches lookup-self but not lookup of another token', async () => {
    const caller = srv.client((await create({ policies: 'default' })).token);
    expect((await caller.secrets('GET', 'auth/token/lookup-self'))!.data!.policies).toEqual(['default']);
    expect((await failure(post('lookup', { token: srv.rootToken }, caller))).statusCode).toBe(403);
  });
});

describe('accessors', () => {
  it('root lists the accessors of live tokens', async () => {
    const { accessor } = await create({ policies: 'default' });
    const revoked = await create({ policies: 'default' });
    await post('revoke', { token: revoked.token });
    const keys = (await root.secrets('LIST', 'auth/token/accessors'))!.data!.keys as string[];
    expect(keys).toContain(accessor);
    expect(keys).not.toContain(revoked.accessor);
  });

  it('listing needs sudo on the path, not only list', async () => {
    const lister = srv.client((await create({ policies: 'lister' })).token);
    expect((await failure(lister.secrets('LIST', 'auth/token/accessors'))).statusCode).toBe(403);
    const sudoer = srv.client((await create({ policies: 'lister-sudo' })).token);
    expect(((await sudoer.secrets('GET', 'auth/token/accessors', { query: { list: 'true' } }))!.data!.keys as string[]).length).toBeGreaterThan(0);
  });
});
