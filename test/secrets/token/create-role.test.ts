/** auth/token/create/:role_name: tokens under a token role's rules, as Vault's token store makes them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS_TABLE } from '../../../src/secrets/token/token-store.js';
import type { TokenEntry } from '../../../src/secrets/token/token-entry.js';
import { startInProcessServer, type InProcessAnswer, type InProcessServer } from '../../support/in-process.js';

interface Envelope {
  data: Record<string, unknown> | null;
  auth: { client_token: string; accessor: string; policies: string[]; orphan: boolean; renewable: boolean; lease_duration: number; token_type: string; num_uses: number; entity_id: string } | null;
  warnings: string[] | null;
  errors?: string[];
}

let srv: InProcessServer;
/** a token that may create against roles but holds only its own policy (and default): no sudo, no p1/p2 */
let creator: string;

async function call(method: string, path: string, body?: unknown, token?: string): Promise<InProcessAnswer & { body: Envelope }> {
  return (await srv.request(method, `/v1/${path}`, { body, token })) as InProcessAnswer & { body: Envelope };
}

async function ok(method: string, path: string, body?: unknown, token?: string): Promise<Envelope> {
  const res = await call(method, path, body, token);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const role = (name: string, body: Record<string, unknown>) => ok('POST', `auth/token/roles/${name}`, body);
const createAgainst = (name: string, body: Record<string, unknown> = {}, token = creator) => ok('POST', `auth/token/create/${name}`, body, token);
const lookup = async (secret: string) => (await ok('POST', 'auth/token/lookup', { token: secret })).data!;

async function refused(name: string, body: Record<string, unknown>, status: number, message: string | RegExp, token = creator): Promise<void> {
  const res = await call('POST', `auth/token/create/${name}`, body, token);
  expect(res.status).toBe(status);
  expect(res.body.errors!.join('\n')).toMatch(message);
}

beforeAll(async () => {
  srv = await startInProcessServer();
  for (const p of ['p1', 'p2', 'p3', 'dev-a', 'dev-b', 'prod-x']) await ok('PUT', `sys/policies/acl/${p}`, { policy: 'path "sys/policies/acl" { capabilities = ["list"] }' });
  await ok('PUT', 'sys/policies/acl/creator', { policy: 'path "auth/token/create/*" { capabilities = ["update"] }\npath "auth/token/create" { capabilities = ["update"] }' });
  await ok('PUT', 'sys/policies/acl/creator-sudo', { policy: 'path "auth/token/create/*" { capabilities = ["update", "sudo"] }' });
  creator = (await ok('POST', 'auth/token/create', { policies: 'creator' })).auth!.client_token;
});

afterAll(async () => {
  await srv?.close();
});

describe('the role', () => {
  it('must exist', async () => {
    await refused('nope', {}, 400, 'unknown role nope');
  });

  it('needs update on auth/token/create/<role>', async () => {
    await role('open', {});
    const other = (await ok('POST', 'auth/token/create', { policies: 'p1' })).auth!.client_token;
    await refused('open', {}, 403, 'permission denied', other);
  });
});

describe('policies', () => {
  it('allowed_policies replace the subset-of-the-caller rule; without policies asked, the token gets them', async () => {
    await role('allow', { allowed_policies: 'p1,p2' });
    expect((await createAgainst('allow', { policies: 'p2' })).auth!.policies).toEqual(['default', 'p2']);
    expect((await createAgainst('allow')).auth!.policies).toEqual(['default', 'p1', 'p2']);
    await refused('allow', { policies: 'p3' }, 400, `token policies (["default" "p3"]) must be subset of the role's allowed policies (["default" "p1" "p2"]) or glob policies ([])`);
  });

  it('allowed_policies_glob match with "*"', async () => {
    await role('glob', { allowed_policies_glob: 'dev-*' });
    expect((await createAgainst('glob', { policies: 'dev-a,dev-b' })).auth!.policies).toEqual(['default', 'dev-a', 'dev-b']);
    await refused('glob', { policies: 'prod-x' }, 400, /must be subset of the role's allowed policies \(\["default"\]\) or glob policies \(\["dev-\*"\]\)/);
    // Nothing asked for and no plain allowed list: only default.
    expect((await createAgainst('glob')).auth!.policies).toEqual(['default']);
  });

  it('disallowed_policies and their globs refuse a policy, asked for or inherited', async () => {
    await role('deny', { disallowed_policies: 'p3', disallowed_policies_glob: 'prod-*' });
    await refused('deny', { policies: 'p3' }, 400, 'token policy "p3" is disallowed by this role');
    await refused('deny', { policies: 'prod-x' }, 400, 'token policy "prod-x" is disallowed by this role');
    // Only disallowed lists: the caller's policies, with default, and no subset rule for those asked.
    expect((await createAgainst('deny')).auth!.policies).toEqual(['creator', 'default']);
    expect((await createAgainst('deny', { policies: 'p1' })).auth!.policies).toEqual(['default', 'p1']);
    await role('deny-creator', { disallowed_policies: 'creator' });
    await refused('deny-creator', {}, 400, 'token policy "creator" is disallowed by this role');
  });

  it('"default" is added unless the request, the role or a disallowed entry keeps it out', async () => {
    await role('allow-p1', { allowed_policies: 'p1' });
    expect((await createAgainst('allow-p1', { no_default_policy: true })).auth!.policies).toEqual(['p1']);
    await role('allow-p1-nodefault', { allowed_policies: 'p1', token_no_default_policy: true });
    expect((await createAgainst('allow-p1-nodefault')).auth!.policies).toEqual(['p1']);
    await role('deny-default', { allowed_policies: 'p1', disallowed_policies: 'default' });
    expect((await createAgainst('deny-default')).auth!.policies).toEqual(['p1']);
    // Asked for anyway: outside the allowed list, which then lacks it too.
    await refused('deny-default', { policies: 'p1,default' }, 400, `token policies (["default" "p1"]) must be subset of the role's allowed policies (["p1"])`);
    await role('deny-default-only', { disallowed_policies: 'default' });
    await refused('deny-default-only', { policies: 'p1,default' }, 400, 'token policy "default" is disallowed by this role');
    await role('deny-default-glob', { allowed_policies: 'p1', disallowed_policies_glob: 'def*' });
    expect((await createAgainst('deny-default-glob')).auth!.policies).toEqual(['p1']);
  });

  it('a role without policy lists keeps create\'s rules: a subset of the caller\'s unless sudo', async () => {
    await refused('open', { policies: 'p2' }, 400, 'child policies must be subset of parent');
    expect((await createAgainst('open')).auth!.policies).toEqual(['creator', 'default']);
    const sudo = (await ok('POST', 'auth/token/create', { policies: 'creator-sudo' })).auth!.client_token;
    expect((await createAgainst('open', { policies: 'p2' }, sudo)).auth!.policies).toEqual(['default', 'p2']);
  });

  it('root comes only from a root parent', async () => {
    await role('allow-root', { allowed_policies: 'root' });
    await refused('allow-root', {}, 400, 'root tokens may not be created without parent token being root');
  });
});

describe('parent, path and limits', () => {
  it('orphan roles make orphans without sudo, which outlive their creator; no_parent is not looked at', async () => {
    await role('orphans', { orphan: true });
    const parent = (await ok('POST', 'auth/token/create', { policies: 'creator' })).auth!.client_token;
    const child = (await createAgainst('orphans', {}, parent)).auth!;
    expect(child.orphan).toBe(true);
    const notOrphan = (await createAgainst('open', { no_parent: true }, parent)).auth!;
    expect(notOrphan.orphan).toBe(false);
    await ok('POST', 'auth/token/revoke-self', {}, parent);
    expect((await lookup(child.client_token)).orphan).toBe(true);
    expect((await call('POST', 'auth/token/lookup', { token: notOrphan.client_token })).status).toBe(403);
  });

  it('the token path is auth/token/create/<role>, with the role\'s path_suffix; lookup shows the role', async () => {
    const plain = await lookup((await createAgainst('open')).auth!.client_token);
    expect(plain).toMatchObject({ path: 'auth/token/create/open', role: 'open' });
    await role('suffixed', { path_suffix: 'rev-2' });
    expect((await lookup((await createAgainst('suffixed')).auth!.client_token)).path).toBe('auth/token/create/suffixed/rev-2');
  });

  it('token_period makes periodic tokens without sudo; a period asked for too (sudo) gives the lesser, with a warning', async () => {
    await role('periodic', { token_period: '1h' });
    const token = (await createAgainst('periodic')).auth!;
    expect(token.lease_duration).toBe(3600);
    expect((await lookup(token.client_token)).period).toBe(3600);
    await refused('periodic', { period: '30m' }, 400, 'root or sudo privileges required to create periodic token');
    const both = await ok('POST', 'auth/token/create/periodic', { period: '30m' });
    expect(both.auth!.lease_duration).toBe(1800);
    expect(both.warnings).toContain('Period specified both during creation call and in role; using the lesser value of 1800 seconds');
  });

  it('token_explicit_max_ttl caps the TTL; one asked for too gives the lesser, with a warning', async () => {
    await role('capped', { token_explicit_max_ttl: '30m' });
    const token = await createAgainst('capped', { ttl: '2h' });
    expect(token.auth!.lease_duration).toBe(1800);
    expect((await lookup(token.auth!.client_token)).explicit_max_ttl).toBe(1800);
    const both = await createAgainst('capped', { explicit_max_ttl: '10m' });
    expect(both.auth!.lease_duration).toBe(600);
    expect(both.warnings).toContain('Explicit max TTL specified both during creation call and in role; using the lesser value of 600 seconds');
  });

  it('token_num_uses is a ceiling on the uses asked for', async () => {
    await role('limited', { token_num_uses: 3 });
    expect((await createAgainst('limited')).auth!.num_uses).toBe(3);
    expect((await createAgainst('limited', { num_uses: 5 })).auth!.num_uses).toBe(3);
    expect((await createAgainst('limited', { num_uses: 2 })).auth!.num_uses).toBe(2);
  });

  it('renewable: false on the role wins over the request', async () => {
    await role('fixed', { renewable: false });
    expect((await createAgainst('fixed', { renewable: true })).auth!.renewable).toBe(false);
    expect((await createAgainst('open')).auth!.renewable).toBe(true);
  });

  it('token_bound_cidrs bind the token', async () => {
    await role('bound', { token_bound_cidrs: '10.9.0.0/16' });
    const secret = (await createAgainst('bound')).auth!.client_token;
    expect((await lookup(secret)).bound_cidrs).toEqual(['10.9.0.0/16']);
    // The in-process client comes from 127.0.0.1, outside the binding.
    expect((await call('GET', 'auth/token/lookup-self', undefined, secret)).status).toBe(403);
  });

  it('token_type: service and batch are imposed; default-batch gives way to the request', async () => {
    await role('batches', { token_type: 'batch', orphan: true, renewable: false });
    expect((await createAgainst('batches', { type: 'service' })).auth!.token_type).toBe('batch');
    await role('maybe-batch', { token_type: 'default-batch', orphan: true });
    expect((await createAgainst('maybe-batch')).auth!.token_type).toBe('batch');
    expect((await createAgainst('maybe-batch', { type: 'service' })).auth!.token_type).toBe('service');
    expect((await createAgainst('open', { type: 'batch' })).auth!.token_type).toBe('batch');
  });
});

describe('entity_alias', () => {
  it('is refused without a role, and when the role does not allow the name', async () => {
    const res = await call('POST', 'auth/token/create', { entity_alias: 'alice' }, creator);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["'entity_alias' is only allowed in combination with token role"]);
    await refused('open', { entity_alias: 'alice' }, 400, "invalid 'entity_alias' value");
  });

  it('attaches the token to the alias\'s entity (made when missing, then reused); names match in lower case and by glob', async () => {
    await role('aliased', { allowed_entity_aliases: 'svc-*,Alice' });
    const first = (await createAgainst('aliased', { entity_alias: 'svc-build' })).auth!;
    expect(first.entity_id).not.toBe('');
    const again = (await createAgainst('aliased', { entity_alias: 'svc-build' })).auth!;
    expect(again.entity_id).toBe(first.entity_id);
    const { identity, store } = srv.server.services;
    const mountAccessor = store.get<TokenEntry>(TOKENS_TABLE, srv.server.services.seal.hashToken(first.client_token))!.mountAccessor;
    expect(identity.getAliasByFactors(mountAccessor, 'svc-build')?.canonicalId).toBe(first.entity_id);
    // The alias keeps the case it was given.
    const alice = (await createAgainst('aliased', { entity_alias: 'ALICE' })).auth!;
    expect(identity.getAliasByFactors(mountAccessor, 'ALICE')?.canonicalId).toBe(alice.entity_id);
    await refused('aliased', { entity_alias: 'bob' }, 400, "invalid 'entity_alias' value");
  });

  it('a disabled entity gets no token (403)', async () => {
    const first = (await createAgainst('aliased', { entity_alias: 'svc-off' })).auth!;
    await ok('POST', `identity/entity/id/${first.entity_id}`, { disabled: true });
    const before = srv.server.services.store.list(TOKENS_TABLE).length;
    await refused('aliased', { entity_alias: 'svc-off' }, 403, 'entity from given entity alias is disabled');
    expect(srv.server.services.store.list(TOKENS_TABLE).length).toBe(before);
  });
});

describe('renewal of role tokens', () => {
  it('follows the role\'s current period, and stops once the role is deleted', async () => {
    await role('renewing', { token_period: '1h' });
    const secret = (await createAgainst('renewing')).auth!.client_token;
    await role('renewing', { token_period: '2h' });
    expect((await ok('POST', 'auth/token/renew-self', {}, secret)).auth!.lease_duration).toBe(7200);
    await ok('DELETE', 'auth/token/roles/renewing');
    const res = await call('POST', 'auth/token/renew-self', {}, secret);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['original token role "renewing" could not be found, not renewing']);
  });

  it('keeps the period the token was created with when its role has none', async () => {
    await role('unperiodic', {});
    // As root, which may ask for a period.
    const secret = (await ok('POST', 'auth/token/create/unperiodic', { period: '30m' })).auth!.client_token;
    expect((await ok('POST', 'auth/token/renew-self', {}, secret)).auth!.lease_duration).toBe(1800);
  });
});
