import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient, SecretsEnvelope } from '../../../src/api/http/client.js';

const SYSTEM_DEFAULT_TTL = 768 * 3600;

let srv: InProcessServer;
let root: ApiClient;

async function create(client: ApiClient, body: Record<string, unknown>, path = 'auth/token/create'): Promise<SecretsEnvelope> {
  const res = await client.secrets('POST', path, { body });
  if (!res?.auth) throw new Error('no auth block in the answer');
  return res;
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

async function expect400(body: Record<string, unknown>, message: string | RegExp, client = root): Promise<void> {
  const err = await failure(create(client, body));
  expect(err.statusCode).toBe(400);
  expect(err.errors.join('\n')).toMatch(message);
}

const token = (res: SecretsEnvelope) => res.auth!.client_token as string;
const lookupSelf = async (secret: string) => (await srv.client(secret).secrets('GET', 'auth/token/lookup-self'))!.data!;

async function writePolicy(name: string, text: string): Promise<void> {
  await root.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
}

beforeAll(async () => {
  srv = await startInProcessServer();
  root = srv.client();
  await writePolicy('creator', 'path "auth/token/create" { capabilities = ["update"] }\npath "auth/token/create-orphan" { capabilities = ["update"] }');
  await writePolicy('creator-sudo', 'path "auth/token/create" { capabilities = ["update", "sudo"] }');
  await writePolicy('p1', 'path "sys/policies/acl" { capabilities = ["list"] }');
  await writePolicy('p2', 'path "sys/policies/acl/*" { capabilities = ["read"] }');
});

afterAll(async () => {
  await srv?.close();
});

describe('auth/token/create fields', () => {
  it('answers an auth block, no data, with a service token', async () => {
    const res = await create(root, { policies: 'p1' });
    expect(res.data).toBeNull();
    expect(token(res)).toMatch(/^svc\.[0-9A-Za-z]{24}$/);
    expect(res.auth!.accessor).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(res.auth).toMatchObject({ token_type: 'service', orphan: false, renewable: true, num_uses: 0, entity_id: '', mfa_requirement: null });
    expect(res.auth).not.toHaveProperty('identity_policies');
  });

  it('policies: a comma list or an array, sorted, de-duplicated, with default added', async () => {
    expect((await create(root, { policies: 'p2,p1,P1' })).auth!.policies).toEqual(['default', 'p1', 'p2']);
    const res = await create(root, { policies: ['p2', 'p1'] });
    expect(res.auth!.policies).toEqual(['default', 'p1', 'p2']);
    expect(res.auth!.token_policies).toEqual(['default', 'p1', 'p2']);
  });

  it('policies: warns about policies that do not exist', async () => {
    const res = await create(root, { policies: 'no-such-policy' });
    expect(res.warnings).toContain('Policy "no-such-policy" does not exist');
  });

  it('policies: refuses a value that is not a list', async () => {
    await expect400({ policies: { a: 1 } }, /"policies"/);
  });

  it('no_default_policy: leaves default out, even when listed', async () => {
    expect((await create(root, { policies: 'p1,default', no_default_policy: true })).auth!.policies).toEqual(['p1']);
    await expect400({ no_default_policy: 'maybe' }, /"no_default_policy"/);
  });

  it('ttl: a duration string or seconds; 0 means the system default', async () => {
    expect((await create(root, { policies: 'p1', ttl: '90m' })).auth!.lease_duration).toBe(5400);
    expect((await create(root, { policies: 'p1', ttl: 120 })).auth!.lease_duration).toBe(120);
    expect((await create(root, { policies: 'p1' })).auth!.lease_duration).toBe(SYSTEM_DEFAULT_TTL);
  });

  it('ttl: capped at the system max with a warning', async () => {
    const res = await create(root, { policies: 'p1', ttl: '1000h' });
    expect(res.auth!.lease_duration).toBe(768 * 3600);
    expect(res.warnings?.join('\n')).toMatch(/capped/);
  });

  it('ttl: refuses junk and negative values', async () => {
    await expect400({ ttl: 'soon' }, /"ttl"/);
    await expect400({ ttl: '-5s' }, 'ttl must be positive');
  });

  it('explicit_max_ttl: caps the TTL and shows in lookups', async () => {
    const res = await create(root, { policies: 'p1', ttl: '2h', explicit_max_ttl: '1h' });
    expect(res.auth!.lease_duration).toBe(3600);
    expect((await lookupSelf(token(res))).explicit_max_ttl).toBe(3600);
    await expect400({ explicit_max_ttl: [1] }, /"explicit_max_ttl"/);
  });

  it('period: the TTL is the period; needs root or sudo', async () => {
    const res = await create(root, { policies: 'p1', period: '30m' });
    expect(res.auth!.lease_duration).toBe(1800);
    expect((await lookupSelf(token(res))).period).toBe(1800);
    const creator = srv.client(token(await create(root, { policies: 'creator' })));
    await expect400({ period: '30m' }, 'root or sudo privileges required to create periodic token', creator);
    await expect400({ period: 'often' }, /"period"/);
  });

  it('num_uses: limits the token and shows in the auth block and lookups', async () => {
    const res = await create(root, { policies: 'p1', num_uses: 3 });
    expect(res.auth!.num_uses).toBe(3);
    // This lookup is itself one of the three uses.
    expect((await lookupSelf(token(res))).num_uses).toBe(2);
    await expect400({ num_uses: 'x' }, /"num_uses"/);
    await expect400({ num_uses: -1 }, 'number of uses cannot be negative');
  });

  it('bound_cidrs: stored as given; junk is refused', async () => {
    const res = await create(root, { policies: 'p1', bound_cidrs: '127.0.0.1/32,::1' });
    expect((await lookupSelf(token(res))).bound_cidrs).toEqual(['127.0.0.1/32', '::1']);
    await expect400({ bound_cidrs: '300.0.0.0/8' }, /bound_cidrs.*300\.0\.0\.0\/8/);
  });

  it('renewable: false makes the token refuse renewal', async () => {
    const res = await create(root, { policies: 'p1', renewable: false });
    expect(res.auth!.renewable).toBe(false);
    const err = await failure(srv.client(token(res)).secrets('POST', 'auth/token/renew-self'));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['lease is not renewable']);
    await expect400({ renewable: 'perhaps' }, /"renewable"/);
  });

  it('meta: a string map shown as metadata; empty is null', async () => {
    const res = await create(root, { policies: 'p1', meta: { team: 'ops', env: 'ci' } });
    expect(res.auth!.metadata).toEqual({ team: 'ops', env: 'ci' });
    expect((await lookupSelf(token(res))).meta).toEqual({ team: 'ops', env: 'ci' });
    expect((await create(root, { policies: 'p1' })).auth!.metadata).toBeNull();
    await expect400({ meta: [1, 2] }, /"meta"/);
    await expect400({ meta: { nested: { a: 1 } } }, /"meta"/);
  });

  it('display_name: shown as token-<name>, sanitised', async () => {
    const res = await create(root, { policies: 'p1', display_name: 'My App' });
    expect((await lookupSelf(token(res))).display_name).toBe('token-My-App');
    expect((await lookupSelf(token(await create(root, { policies: 'p1' })))).display_name).toBe('token');
  });

  it('type: refuses values other than service and batch', async () => {
    await expect400({ type: 'default-service' }, /"type"/);
  });

  it('id: root may choose the token; a duplicate is refused; others may not', async () => {
    const res = await create(root, { policies: 'p1', id: 'my-chosen-token' });
    expect(token(res)).toBe('my-chosen-token');
    expect((await lookupSelf('my-chosen-token')).id).toBe('my-chosen-token');
    await expect400({ id: 'my-chosen-token' }, 'cannot create a token with a duplicate ID');
    const creator = srv.client(token(await create(root, { policies: 'creator' })));
    await expect400({ id: 'another-token' }, 'root or sudo privileges required to specify token id', creator);
  });

  it('entity_id: the entity must exist; the token then carries it and its policies', async () => {
    await expect400({ entity_id: 'no-such-entity' }, 'entity "no-such-entity" does not exist');
    const entity = await root.secrets('POST', 'identity/entity', { body: { name: 'token-test-entity', policies: 'p2' } });
    const entityId = entity!.data!.id as string;
    const res = await create(root, { policies: 'p1', entity_id: entityId });
    expect(res.auth!.entity_id).toBe(entityId);
    expect(res.auth!.identity_policies).toEqual(['p2']);
    expect(res.auth!.policies).toEqual(['default', 'p1', 'p2']);
    expect(res.auth!.token_policies).toEqual(['default', 'p1']);
    const creator = srv.client(token(await create(root, { policies: 'creator' })));
    await expect400({ entity_id: entityId }, 'root or sudo privileges required to set entity_id', creator);
  });

  it('warns about parameters it does not know', async () => {
    const res = await create(root, { policies: 'p1', colour: 'blue' });
    expect(res.warnings).toContain('Endpoint ignored these unrecognized parameters: [colour]');
  });
});

describe('who may create what', () => {
  it('a non-root caller may only ask for a subset of its own policies', async () => {
    const parent = srv.client(token(await create(root, { policies: 'creator,p1' })));
    expect((await create(parent, { policies: 'p1' })).auth!.policies).toEqual(['default', 'p1']);
    await expect400({ policies: 'p2' }, 'child policies must be subset of parent', parent);
    await expect400({ policies: 'root' }, 'child policies must be subset of parent', parent);
  });

  it("without policies the child gets the caller's", async () => {
    const parent = srv.client(token(await create(root, { policies: 'creator,p1' })));
    expect((await create(parent, {})).auth!.policies).toEqual(['creator', 'default', 'p1']);
  });

  it('default is added to a child only when the caller has it', async () => {
    const parent = srv.client(token(await create(root, { policies: 'creator,p1', no_default_policy: true })));
    expect((await create(parent, { policies: 'p1' })).auth!.policies).toEqual(['p1']);
    expect((await create(parent, {})).auth!.policies).toEqual(['creator', 'p1']);
  });

  it('sudo on the path lifts the subset rule, but not to root', async () => {
    const sudoer = srv.client(token(await create(root, { policies: 'creator-sudo' })));
    expect((await create(sudoer, { policies: 'p2' })).auth!.policies).toEqual(['default', 'p2']);
    await expect400({ policies: 'root' }, 'root tokens may not be created without parent token being root', sudoer);
  });

  it('no_parent needs root or sudo; create-orphan needs only the path', async () => {
    const creator = srv.client(token(await create(root, { policies: 'creator,p1' })));
    await expect400({ no_parent: true }, 'root or sudo privileges required to create orphan token', creator);
    expect((await create(creator, { policies: 'p1' }, 'auth/token/create-orphan')).auth!.orphan).toBe(true);
    expect((await create(root, { policies: 'p1', no_parent: true })).auth!.orphan).toBe(true);
  });

  it('a caller without the create capability is refused', async () => {
    const plain = srv.client(token(await create(root, { policies: 'p1' })));
    const err = await failure(create(plain, {}));
    expect(err.statusCode).toBe(403);
  });
});

describe('root tokens', () => {
  it('never expire when asked for without a TTL, and are not renewable', async () => {
    const res = await create(root, { policies: 'root' });
    expect(res.auth).toMatchObject({ policies: ['root'], lease_duration: 0, renewable: false });
    const data = await lookupSelf(token(res));
    expect(data.expire_time).toBeNull();
    expect(data.ttl).toBe(0);
  });

  it('get a TTL when one is asked for, and then cannot make never-expiring root tokens', async () => {
    const res = await create(root, { policies: 'root', ttl: '1h' });
    expect(res.auth!.lease_duration).toBe(3600);
    await expect400({ policies: 'root' }, 'expiring root tokens cannot create non-expiring root tokens', srv.client(token(res)));
  });

  it('the server root token has no default policy and no TTL', async () => {
    const data = await lookupSelf(srv.rootToken);
    expect(data.policies).toEqual(['root']);
    expect(data.ttl).toBe(0);
    expect(data.orphan).toBe(true);
  });
});

describe('batch tokens', () => {
  it('have their own prefix, no accessor, and are not renewable', async () => {
    const res = await create(root, { policies: 'p1', type: 'batch' });
    expect(token(res)).toMatch(/^svb\.[0-9A-Za-z]{24}$/);
    expect(res.auth).toMatchObject({ accessor: '', token_type: 'batch', renewable: false });
    expect((await lookupSelf(token(res))).type).toBe('batch');
  });

  it('cannot have a use limit, a period or an explicit max TTL', async () => {
    await expect400({ type: 'batch', num_uses: 2 }, 'batch tokens cannot have "num_uses" set');
    await expect400({ type: 'batch', period: '1h' }, 'batch tokens cannot have "period" set');
    await expect400({ type: 'batch', explicit_max_ttl: '1h' }, 'batch tokens cannot have "explicit_max_ttl" set');
  });

  it('cannot be root tokens', async () => {
    await expect400({ type: 'batch', policies: 'root' }, 'batch tokens cannot be root tokens');
  });

  it('cannot create tokens', async () => {
    const batch = srv.client(token(await create(root, { policies: 'creator', type: 'batch' })));
    await expect400({}, 'batch tokens cannot create more tokens', batch);
  });

  it('cannot be renewed or revoked directly, but go with their parent', async () => {
    const parent = token(await create(root, { policies: 'creator,p1' }));
    const batch = token(await create(srv.client(parent), { policies: 'p1', type: 'batch' }));
    const renew = await failure(root.secrets('POST', 'auth/token/renew', { body: { token: batch } }));
    expect(renew.errors).toEqual(['batch tokens cannot be renewed']);
    const revoke = await failure(root.secrets('POST', 'auth/token/revoke', { body: { token: batch } }));
    expect(revoke.statusCode).toBe(400);
    expect(revoke.errors).toEqual(['batch tokens cannot be revoked']);
    await root.secrets('POST', 'auth/token/revoke', { body: { token: parent } });
    expect((await failure(lookupSelf(batch))).statusCode).toBe(403);
  });
});
