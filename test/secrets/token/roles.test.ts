/** auth/token/roles: role CRUD and LIST in Vault's shape, Vault's validation, ACL, and persistence. */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/server/app.js';
import { readTokenRole, TOKEN_ROLES_TABLE } from '../../../src/secrets/token/role-store.js';
import { startInProcessServer, type InProcessAnswer, type InProcessServer } from '../../support/in-process.js';
import { makeTempDir } from '../../support/server.js';

let srv: InProcessServer;

async function call(method: string, path: string, body?: unknown, token?: string): Promise<InProcessAnswer> {
  return srv.request(method, `/v1/${path}`, { body, token });
}

async function ok(method: string, path: string, body?: unknown, token?: string): Promise<InProcessAnswer> {
  const res = await call(method, path, body, token);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

const readRole = async (name: string) => ((await ok('GET', `auth/token/roles/${name}`)).body as { data: Record<string, unknown> }).data;
const errors = (res: InProcessAnswer) => (res.body as { errors: string[] }).errors.join('\n');
const warnings = (res: InProcessAnswer) => ((res.body as { warnings: string[] | null }).warnings ?? []).join('\n');

async function tokenWith(policy: string): Promise<string> {
  await ok('PUT', `sys/policies/acl/${policy}`, { policy: POLICIES[policy] });
  const res = await ok('POST', 'auth/token/create', { policies: policy });
  return (res.body as { auth: { client_token: string } }).auth.client_token;
}

const POLICIES: Record<string, string> = {
  'roles-read': 'path "auth/token/roles/*" { capabilities = ["read"] }',
  'roles-update': 'path "auth/token/roles/*" { capabilities = ["update"] }',
  'roles-list': 'path "auth/token/roles/" { capabilities = ["list"] }',
};

beforeAll(async () => {
  srv = await startInProcessServer();
});

afterAll(async () => {
  await srv?.close();
});

describe('token role CRUD', () => {
  it('LIST answers 404 while there are no roles', async () => {
    expect((await call('LIST', 'auth/token/roles')).status).toBe(404);
  });

  it('a new role answers 204 and reads back with every default in Vault\'s key set', async () => {
    expect((await ok('POST', 'auth/token/roles/plain', {})).status).toBe(204);
    expect(await readRole('plain')).toEqual({
      allowed_entity_aliases: null,
      allowed_policies: [],
      allowed_policies_glob: [],
      disallowed_policies: [],
      disallowed_policies_glob: [],
      explicit_max_ttl: 0,
      name: 'plain',
      orphan: false,
      path_suffix: '',
      period: 0,
      renewable: true,
      token_explicit_max_ttl: 0,
      token_no_default_policy: false,
      token_period: 0,
      token_type: 'default-service',
    });
  });

  it('stores every field sent, policies sanitised and lists lower-cased, sorted and de-duplicated', async () => {
    await ok('PUT', 'auth/token/roles/full', {
      allowed_policies: 'B, a,,a',
      disallowed_policies: ['Y', 'x', 'x '],
      allowed_policies_glob: 'dev-*',
      disallowed_policies_glob: 'Prod-*',
      orphan: true,
      renewable: false,
      path_suffix: 'rev-1',
      allowed_entity_aliases: 'Alice,bob-*',
      token_explicit_max_ttl: '2h',
      token_period: 3600,
      token_bound_cidrs: '10.0.0.0/8, 127.0.0.1',
      token_no_default_policy: true,
      token_num_uses: 5,
      token_type: 'service',
    });
    expect(await readRole('full')).toEqual({
      allowed_entity_aliases: ['alice', 'bob-*'],
      allowed_policies: ['a', 'b'],
      allowed_policies_glob: ['dev-*'],
      disallowed_policies: ['x', 'y'],
      disallowed_policies_glob: ['prod-*'],
      explicit_max_ttl: 0,
      name: 'full',
      orphan: true,
      path_suffix: 'rev-1',
      period: 0,
      renewable: false,
      token_bound_cidrs: ['10.0.0.0/8', '127.0.0.1'],
      token_explicit_max_ttl: 7200,
      token_no_default_policy: true,
      token_num_uses: 5,
      token_period: 3600,
      token_type: 'service',
    });
  });

  it('an update changes only the fields it sends', async () => {
    await ok('POST', 'auth/token/roles/full', { orphan: false, allowed_policies: 'c' });
    const role = await readRole('full');
    expect(role).toMatchObject({ orphan: false, allowed_policies: ['c'], renewable: false, path_suffix: 'rev-1', token_num_uses: 5, token_period: 3600 });
  });

  it('deprecated period, explicit_max_ttl and bound_cidrs set the token_* values and read back while set', async () => {
    await ok('POST', 'auth/token/roles/legacy', { period: '1h', explicit_max_ttl: 7200, bound_cidrs: '10.1.0.0/16' });
    expect(await readRole('legacy')).toMatchObject({
      period: 3600,
      token_period: 3600,
      explicit_max_ttl: 7200,
      token_explicit_max_ttl: 7200,
      bound_cidrs: ['10.1.0.0/16'],
      token_bound_cidrs: ['10.1.0.0/16'],
    });
    // The token_* name alone clears the deprecated one.
    await ok('POST', 'auth/token/roles/legacy', { token_period: '2h', token_bound_cidrs: '10.2.0.0/16' });
    const role = await readRole('legacy');
    expect(role).toMatchObject({ period: 0, token_period: 7200, explicit_max_ttl: 7200, token_bound_cidrs: ['10.2.0.0/16'] });
    expect(role).not.toHaveProperty('bound_cidrs');
  });

  it('both names sent: the token_* value wins, with Vault\'s warning', async () => {
    const res = await ok('POST', 'auth/token/roles/legacy', { token_period: 60, period: 120, token_explicit_max_ttl: 300, explicit_max_ttl: 600 });
    expect(warnings(res)).toContain("Both 'token_period' and deprecated 'period' value supplied, ignoring the deprecated value");
    expect(warnings(res)).toContain("Both 'token_explicit_max_ttl' and deprecated 'explicit_max_ttl' value supplied, ignoring the deprecated value");
    expect(await readRole('legacy')).toMatchObject({ token_period: 60, period: 0, token_explicit_max_ttl: 300, explicit_max_ttl: 0 });
  });

  it('an explicit max TTL above the mount maximum is stored with Vault\'s warning', async () => {
    const res = await ok('POST', 'auth/token/roles/long', { token_explicit_max_ttl: '10000h' });
    expect(warnings(res)).toContain('Given explicit max TTL of 36000000 is greater than system/mount allowed value of 2764800 seconds');
  });

  it('LIST (and GET ?list=true) answers the names, sorted', async () => {
    const expected = ['full', 'legacy', 'long', 'plain'];
    expect(((await ok('LIST', 'auth/token/roles')).body as { data: { keys: string[] } }).data.keys).toEqual(expected);
    expect(((await ok('GET', 'auth/token/roles?list=true')).body as { data: { keys: string[] } }).data.keys).toEqual(expected);
  });

  it('names are case-sensitive, as Vault\'s', async () => {
    await ok('POST', 'auth/token/roles/Plain', { orphan: true });
    expect((await readRole('Plain')).orphan).toBe(true);
    expect((await readRole('plain')).orphan).toBe(false);
    await ok('DELETE', 'auth/token/roles/Plain');
  });

  it('DELETE answers 204, the role is gone (read 404), and deleting again is no error', async () => {
    await ok('POST', 'auth/token/roles/doomed', {});
    expect((await ok('DELETE', 'auth/token/roles/doomed')).status).toBe(204);
    expect((await call('GET', 'auth/token/roles/doomed')).status).toBe(404);
    expect(readTokenRole(srv.server.services.store, 'doomed')).toBeUndefined();
    expect((await ok('DELETE', 'auth/token/roles/doomed')).status).toBe(204);
  });
});

describe('token role validation: 400 naming the field, nothing stored', () => {
  const refused = async (name: string, body: Record<string, unknown>, message: string | RegExp) => {
    const res = await call('POST', `auth/token/roles/${name}`, body);
    expect(res.status).toBe(400);
    expect(errors(res)).toMatch(message);
    expect(srv.server.services.store.get(TOKEN_ROLES_TABLE, name)).toBeUndefined();
  };

  it('ill-typed fields', async () => {
    await refused('bad', { orphan: 'maybe' }, /field "orphan" must be a boolean/);
    await refused('bad', { token_period: 'soon' }, /field "token_period" must be a duration/);
    await refused('bad', { token_num_uses: 'x' }, /field "token_num_uses" must be an integer/);
    await refused('bad', { allowed_policies: { a: 1 } }, /field "allowed_policies"/);
  });

  it('token_type takes service, batch, default-service or default-batch', async () => {
    await refused('bad', { token_type: 'default' }, /invalid value "default" for field "token_type"/);
  });

  it('negative values', async () => {
    await refused('bad', { token_num_uses: -1 }, "'token_num_uses' cannot be negative");
    await refused('bad', { token_period: -5 }, "'token_period' cannot be negative");
    await refused('bad', { token_explicit_max_ttl: -5 }, "'token_explicit_max_ttl' cannot be negative");
  });

  it('CIDRs', async () => {
    await refused('bad', { token_bound_cidrs: '10.0.0.0/33' }, /token_bound_cidrs: invalid CIDR block or IP address "10.0.0.0\/33"/);
    await refused('bad', { bound_cidrs: 'nope' }, /bound_cidrs: invalid CIDR block or IP address "nope"/);
  });

  it('path_suffix must match Vault\'s pattern and hold no parent reference', async () => {
    await refused('bad', { path_suffix: '!!' }, 'field "path_suffix": given role path suffix contains invalid characters; must match \\w[\\w-.]+\\w');
    // Three word characters at least, as Vault's pattern asks.
    await refused('bad', { path_suffix: 'v1' }, /given role path suffix contains invalid characters/);
    await refused('bad', { path_suffix: 'a..b' }, /field "path_suffix": .*path cannot contain parent references/);
  });

  it('batch roles: orphan, not renewable, neither periodic nor with an explicit max TTL or a use limit', async () => {
    await refused('bad', { token_type: 'batch', renewable: false }, "'token_type' cannot be 'batch' when role is set to generate non-orphan tokens");
    await refused('bad', { token_type: 'batch', orphan: true }, "'token_type' cannot be 'batch' when role is set to generate renewable tokens");
    await refused('bad', { token_type: 'batch', orphan: true, renewable: false, token_period: 60 }, "'token_type' cannot be 'batch' when role is set to generate periodic tokens");
    await refused('bad', { token_type: 'batch', orphan: true, renewable: false, explicit_max_ttl: 60 }, 'with an explicit max TTL');
    await refused('bad', { token_type: 'default-batch', token_num_uses: 3 }, 'when set to generate tokens with limited use count');
    await ok('POST', 'auth/token/roles/batchy', { token_type: 'batch', orphan: true, renewable: false });
    expect((await readRole('batchy')).token_type).toBe('batch');
  });

  it('a refused update leaves the role as it was', async () => {
    await ok('POST', 'auth/token/roles/kept', { orphan: true, allowed_policies: 'a' });
    const res = await call('POST', 'auth/token/roles/kept', { allowed_policies: 'b', token_type: 'batch' });
    expect(res.status).toBe(400);
    expect(await readRole('kept')).toMatchObject({ allowed_policies: ['a'], token_type: 'default-service' });
  });

  it('role names are Vault\'s generic names', async () => {
    await refused('-dash', {}, /invalid role_name "-dash"/);
    await refused('a%20b', {}, /invalid role_name "a b"/);
  });
});

describe('token role ACL (auth/token/roles/*)', () => {
  it('read needs read; a new role needs create and an existing one update; LIST needs list on auth/token/roles/', async () => {
    await ok('POST', 'auth/token/roles/guarded', { orphan: true });
    const reader = await tokenWith('roles-read');
    const updater = await tokenWith('roles-update');
    const lister = await tokenWith('roles-list');

    expect((await call('GET', 'auth/token/roles/guarded', undefined, reader)).status).toBe(200);
    expect((await call('POST', 'auth/token/roles/guarded', { orphan: false }, reader)).status).toBe(403);
    expect((await call('GET', 'auth/token/roles/guarded', undefined, updater)).status).toBe(403);
    expect((await call('POST', 'auth/token/roles/guarded', { orphan: false }, updater)).status).toBe(204);
    expect((await call('POST', 'auth/token/roles/brand-new', {}, updater)).status).toBe(403);
    expect((await call('DELETE', 'auth/token/roles/guarded', undefined, updater)).status).toBe(403);
    expect((await call('LIST', 'auth/token/roles', undefined, reader)).status).toBe(403);
    expect((await call('LIST', 'auth/token/roles', undefined, lister)).status).toBe(200);
    expect((await readRole('guarded')).orphan).toBe(false);
    expect(readTokenRole(srv.server.services.store, 'brand-new')).toBeUndefined();
  });
});

describe('token role persistence', () => {
  it('a role written survives a restart of a server on disk', async () => {
    const dataDir = await makeTempDir('svc-token-roles-');
    try {
      const first = await buildServer({ dev: false, dataDir, client: false, logWrite: () => undefined });
      const root = first.rootToken!;
      const answer = await first.handle({
        method: 'POST',
        path: '/v1/auth/token/roles/durable',
        query: new URLSearchParams(),
        headers: { 'x-svc-token': root, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ allowed_policies: 'p', orphan: true })),
        remoteAddress: '127.0.0.1',
      });
      expect(answer.status).toBe(204);
      await first.close();
      const again = await buildServer({ dev: false, dataDir, client: false, logWrite: () => undefined });
      expect(readTokenRole(again.services.store, 'durable')).toMatchObject({ name: 'durable', allowed_policies: ['p'], orphan: true });
      await again.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
