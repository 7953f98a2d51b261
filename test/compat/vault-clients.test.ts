/**
 * The secrets API as Vault's own client libraries see it: node-vault (npm, a devDependency) and hvac
 * (Python, Debian's python3-hvac, installed here when missing), unmodified, against the built bin/svc
 * started with -dev on port 0. Each call's answer is what the library parsed, so a status code, an
 * envelope field or a response shape that differs from Vault's fails here first.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import nodeVault from 'node-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/server.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { ensureHvac, hvacStep } from './hvac.js';

let srv: SpawnedServer;
let home: string;
let root: string;
let auditFile: string;

beforeAll(async () => {
  ensureHvac();
  home = await makeTempDir('svc-compat-vault-');
  auditFile = path.join(home, 'audit.log');
  srv = await spawnServer(['-dev', '-port=0', '-client=false', `-audit-file=${auditFile}`], { HOME: home });
  root = srv.rootToken!;
}, 300_000);

afterAll(async () => {
  await stopServer(srv);
  await rm(home, { recursive: true, force: true });
});

/** A node-vault client as applications make one; `list()` sends Vault's LIST verb unless told not to. */
const vault = (token: string | undefined = root, opts: { noCustomHTTPVerbs?: boolean } = {}) =>
  nodeVault({ apiVersion: 'v1', endpoint: srv.url, token, ...opts });

/** The status code node-vault reports for a failed call. */
async function failedStatus(call: Promise<unknown>): Promise<number> {
  const err = (await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  )) as { response?: { statusCode: number } };
  if (!err.response) throw err;
  return err.response.statusCode;
}

describe('node-vault', () => {
  it('reads health, seal status and init status as Vault answers them', async () => {
    const v = vault();
    expect(await v.health()).toMatchObject({ initialized: true, sealed: false, standby: false });
    const seal = await v.status();
    expect(seal).toMatchObject({ sealed: false, initialized: true, progress: 0 });
    expect(seal.t).toBeGreaterThanOrEqual(1);
    expect(seal.n).toBeGreaterThanOrEqual(seal.t);
    expect(await v.initialized()).toEqual({ initialized: true });
  });

  it('names itself the leader at the address clients reach it on, as Vault’s sys/leader does', async () => {
    // Clients send writes to leader_address, so it is the API address, not the cluster one.
    expect(await vault().leader()).toMatchObject({ is_self: true, leader_address: srv.url });
  });

  it('lists token accessors, looks a token up by accessor and revokes it by accessor', async () => {
    const v = vault();
    const { accessor, client_token: child } = (await vault().tokenCreate({ policies: ['default'], ttl: '1h' })).auth as { accessor: string; client_token: string };
    expect((await v.tokenAccessors()).data.keys).toContain(accessor);
    expect((await v.tokenLookupAccessor({ accessor })).data).toMatchObject({ accessor, policies: ['default'] });
    expect((await v.tokenLookupAccessor({ accessor })).data.id).toBe('');
    expect(await v.tokenRevokeAccessor({ accessor })).toBe('');
    expect(await failedStatus(vault(child).tokenLookupSelf())).toBe(403);
  });

  it('creates, looks up, renews and revokes a token; the revoked token is refused with 403', async () => {
    const creator = vault();
    const created = await creator.tokenCreate({ policies: ['default'], ttl: '1h', meta: { app: 'billing' } });
    const child = created.auth.client_token as string;
    expect(created.auth).toMatchObject({ policies: ['default'], lease_duration: 3600, renewable: true });
    // node-vault adopts the token a create returns, as its README says.
    expect(creator.token).toBe(child);

    const self = await vault().tokenLookupSelf();
    expect(self.data).toMatchObject({ id: root, policies: ['root'] });
    const looked = await vault().tokenLookup({ token: child });
    expect(looked.data).toMatchObject({ id: child, policies: ['default'], meta: { app: 'billing' } });
    expect(looked.data.ttl).toBeGreaterThan(0);

    const renewed = await vault(child).tokenRenewSelf({ increment: '2h' });
    expect(renewed.auth).toMatchObject({ client_token: child, lease_duration: 7200 });

    // Vault answers a revoke with 204 and no body.
    expect(await vault().tokenRevoke({ token: child })).toBe('');
    expect(await failedStatus(vault(child).tokenLookupSelf())).toBe(403);
  });

  it('writes, reads, lists and deletes a policy', async () => {
    const v = vault();
    const rules = 'path "secret/billing/*" {\n  capabilities = ["read", "list"]\n}\n';
    // node-vault sends the text as `rules`, which sys/policy still takes; Vault answers such a write with
    // the field's deprecation warning (a 200), where a write with `policy` answers nothing (a 204).
    const written = await v.addPolicy({ name: 'nv-read', rules });
    expect(written.warnings.join(' ')).toMatch(/rules/);
    const read = await v.getPolicy({ name: 'nv-read' });
    expect(read.data).toMatchObject({ name: 'nv-read', rules });
    // sys/policy answers its data at the top level too, as Vault does for its older sys routes.
    expect(read).toMatchObject({ name: 'nv-read', rules });
    const listed = await v.policies();
    expect(listed.data.policies).toEqual(expect.arrayContaining(['default', 'nv-read', 'root']));
    expect(listed.policies).toEqual(listed.data.policies);
    expect(await v.removePolicy({ name: 'nv-read' })).toBe('');
    expect(await failedStatus(v.getPolicy({ name: 'nv-read' }))).toBe(404);
  });

  it('enables, lists and disables an auth method under sys/auth', async () => {
    const v = vault();
    expect(await v.enableAuth({ mount_point: 'cloud-nv', type: 'cloud', description: 'from node-vault' })).toBe('');
    const listed = await v.auths();
    expect(listed.data['cloud-nv/']).toMatchObject({ type: 'cloud', description: 'from node-vault', accessor: expect.any(String) });
    expect(listed['cloud-nv/']).toEqual(listed.data['cloud-nv/']);
    expect(listed.data['token/']).toMatchObject({ type: 'token' });
    expect(await v.disableAuth({ mount_point: 'cloud-nv' })).toBe('');
    expect(Object.keys((await v.auths()).data)).not.toContain('cloud-nv/');
  });

  it('lists secrets mounts and audit devices under sys/mounts and sys/audit', async () => {
    const v = vault();
    const mounts = await v.mounts();
    expect(mounts.data['sys/']).toMatchObject({ type: 'system', accessor: expect.any(String) });
    expect(mounts.data['identity/']).toMatchObject({ type: 'identity' });
    expect(mounts['sys/']).toEqual(mounts.data['sys/']);
    const audits = await v.audits();
    expect(audits.data['file/']).toMatchObject({ type: 'file', path: 'file/', options: { file_path: auditFile } });
    expect(audits['file/']).toEqual(audits.data['file/']);
  });

  it('answers capabilities-self per path, and "capabilities" for a single path', async () => {
    const v = vault();
    await v.addPolicy({ name: 'nv-caps', rules: 'path "sys/policy/*" { capabilities = ["read", "list"] }' });
    const limited = (await vault().tokenCreate({ policies: ['nv-caps'], ttl: '10m' })).auth.client_token as string;
    const mine = await vault(limited).write('sys/capabilities-self', { paths: ['sys/policy/x', 'sys/mounts'] });
    expect(mine.data).toMatchObject({ 'sys/policy/x': ['list', 'read'], 'sys/mounts': ['deny'] });
    const rootCaps = await v.write('sys/capabilities-self', { paths: ['sys/policy/x'] });
    expect(rootCaps.data).toMatchObject({ capabilities: ['root'], 'sys/policy/x': ['root'] });
    expect(rootCaps.capabilities).toEqual(['root']);
  });

  it.each([
    ['the LIST verb', false],
    ['GET ?list=1', true],
  ])('runs entity and entity-alias CRUD through write/read/list/delete, listing with %s', async (_how, noCustomHTTPVerbs) => {
    const v = vault(root, { noCustomHTTPVerbs });
    const name = `nv-alice-${noCustomHTTPVerbs ? 'get' : 'list'}`;
    const accessor = (await v.auths()).data['token/'].accessor as string;
    const created = await v.write('identity/entity', { name, metadata: { team: 'billing' }, policies: ['default'] });
    const id = created.data.id as string;
    expect(created.data).toMatchObject({ id: expect.any(String), name });
    expect((await v.read(`identity/entity/id/${id}`)).data).toMatchObject({ id, name, metadata: { team: 'billing' }, policies: ['default'] });
    // An update of an existing entity answers 204, as Vault's does.
    expect(await v.write(`identity/entity/id/${id}`, { metadata: { team: 'payments' } })).toBe('');
    expect((await v.read(`identity/entity/name/${name}`)).data).toMatchObject({ id, metadata: { team: 'payments' } });
    expect((await v.list('identity/entity/id')).data.keys).toContain(id);

    const alias = await v.write('identity/entity-alias', { name: `${name}-alias`, canonical_id: id, mount_accessor: accessor });
    const aliasId = alias.data.id as string;
    expect(alias.data).toMatchObject({ id: expect.any(String), canonical_id: id });
    expect((await v.read(`identity/entity-alias/id/${aliasId}`)).data).toMatchObject({ name: `${name}-alias`, canonical_id: id, mount_accessor: accessor });
    expect((await v.list('identity/entity-alias/id')).data.keys).toContain(aliasId);
    expect((await v.read(`identity/entity/id/${id}`)).data.aliases).toEqual([expect.objectContaining({ id: aliasId })]);
    expect(await v.delete(`identity/entity-alias/id/${aliasId}`)).toBe('');
    expect(await failedStatus(v.read(`identity/entity-alias/id/${aliasId}`))).toBe(404);
    expect(await v.delete(`identity/entity/id/${id}`)).toBe('');
    expect(await failedStatus(v.read(`identity/entity/id/${id}`))).toBe(404);
  });

  it('creates, reads, lists and deletes an identity group', async () => {
    const v = vault();
    const member = (await v.write('identity/entity', { name: 'nv-member' })).data.id as string;
    const group = await v.write('identity/group', { name: 'nv-devs', member_entity_ids: [member], policies: ['default'] });
    const id = group.data.id as string;
    expect(group.data).toMatchObject({ id: expect.any(String), name: 'nv-devs' });
    expect((await v.read(`identity/group/id/${id}`)).data).toMatchObject({ id, name: 'nv-devs', type: 'internal', member_entity_ids: [member], policies: ['default'] });
    expect((await v.read(`identity/group/name/nv-devs`)).data.id).toBe(id);
    expect((await v.list('identity/group/id')).data.keys).toContain(id);
    expect((await v.read(`identity/entity/id/${member}`)).data.direct_group_ids).toEqual([id]);
    expect(await v.delete(`identity/group/id/${id}`)).toBe('');
    expect(await failedStatus(v.read(`identity/group/id/${id}`))).toBe(404);
  });

  it('writes, reads and lists a token role, creates a token against it, and deletes it', async () => {
    const v = vault();
    expect(await v.addTokenRole({ role_name: 'nv-ci', allowed_policies: 'default,ci', orphan: true, renewable: false })).toBe('');
    expect((await v.getTokenRole({ role_name: 'nv-ci' })).data).toMatchObject({ name: 'nv-ci', allowed_policies: ['ci', 'default'], orphan: true, renewable: false });
    expect((await v.tokenRoles()).data.keys).toEqual(['nv-ci']);
    const created = await vault().tokenCreateRole({ role_name: 'nv-ci', policies: ['ci'] });
    expect(created.auth).toMatchObject({ policies: ['ci', 'default'], orphan: true, renewable: false });
    const looked = await v.tokenLookup({ token: created.auth.client_token });
    expect(looked.data).toMatchObject({ role: 'nv-ci', path: 'auth/token/create/nv-ci', orphan: true });
    expect(await v.removeTokenRole({ role_name: 'nv-ci' })).toBe('');
    expect(await failedStatus(v.getTokenRole({ role_name: 'nv-ci' }))).toBe(404);
  });

  it('reports errors with Vault’s status codes and its first error message', async () => {
    expect(await failedStatus(vault('').tokenLookupSelf())).toBe(403);
    expect(await failedStatus(vault('svc.not-a-token').policies())).toBe(403);
    expect(await failedStatus(vault().addPolicy({ name: 'broken', rules: 'path "x" { capabilities = ' }))).toBe(400);
    const err = await vault()
      .read('sys/policy/no-such-policy')
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { response: { statusCode: number; body: unknown } }).response).toMatchObject({ statusCode: 404, body: { errors: expect.any(Array) } });
  });
});

describe('hvac (Python)', () => {
  const step = (name: string) => hvacStep(name, srv.url, root);

  it('reads health with HEAD and GET, init and seal status', async () => {
    const r = await step('health');
    // hvac's default is HEAD: Vault answers it with the status code alone.
    expect(r).toMatchObject({ head_status: 200, head_body: '', initialized: true, sealed: false });
    expect(r.get).toMatchObject({ initialized: true, sealed: false, standby: false });
    expect(r.seal_status).toMatchObject({ sealed: false, initialized: true, progress: 0 });
    expect(r.init_status).toEqual({ initialized: true });
  });

  it('creates, looks up, renews and revokes a token', async () => {
    expect(await step('tokens')).toEqual({
      self_policies: ['root'],
      self_id_matches: true,
      created_policies: ['default'],
      created_lease_duration: 3600,
      created_renewable: true,
      lookup_meta: { app: 'billing' },
      lookup_ttl_positive: true,
      renewed_lease_duration: 7200,
      revoke_status: 204,
      after_revoke: 'Forbidden',
    });
  });

  it('writes, reads, lists and deletes a policy', async () => {
    const r = await step('policies');
    expect(r).toMatchObject({ write_status: 204, read_name: 'billing-read', delete_status: 204, after_delete: 'InvalidPath' });
    expect(r.read_rules).toBe('path "secret/billing/*" {\n  capabilities = ["read", "list"]\n}\n');
    expect(r.listed).toEqual(expect.arrayContaining(['billing-read', 'default', 'root']));
    expect(r.listed_top_level).toEqual(r.listed);
    expect(r.after_delete_list).not.toContain('billing-read');
  });

  it('enables, lists and disables an auth method', async () => {
    const r = await step('auth_methods');
    expect(r).toMatchObject({ enable_status: 204, disable_status: 204, token_listed: 'token' });
    expect(r.listed).toMatchObject({ type: 'cloud', description: 'from hvac', accessor: expect.any(String) });
    expect(r.listed_top_level).toEqual(r.listed);
    expect(r.after_disable).not.toContain('cloud-py/');
  });

  it('answers capabilities for the caller, for another token, and for root', async () => {
    const r = (await step('capabilities')) as Record<string, { data: Record<string, string[]> } & Record<string, unknown>>;
    expect(r.self.data).toMatchObject({ 'sys/policy/x': ['list', 'read'], 'sys/mounts': ['deny'] });
    expect(r.of_token.data).toMatchObject({ capabilities: ['list', 'read'], 'sys/policy/x': ['list', 'read'] });
    expect(r.root.data).toMatchObject({ capabilities: ['root'] });
    expect(r.root.capabilities).toEqual(['root']);
  });

  it('runs entity, entity-alias, lookup and merge operations', async () => {
    expect(await step('identity')).toEqual({
      entity_name: 'py-alice',
      entity_metadata: { team: 'billing' },
      by_name_id: true,
      update_status: 204,
      metadata_after_update: { team: 'payments' },
      entity_listed: true,
      alias_canonical: true,
      alias_name: 'alice-token',
      alias_mount_accessor: true,
      alias_listed: true,
      lookup_id: true,
      alias_delete_status: 204,
      merge_status: 204,
      merged_gone: 'InvalidPath',
      entity_delete_status: 204,
      entity_gone: 'InvalidPath',
    });
  });

  it('runs identity group and group-alias operations', async () => {
    const r = await step('groups');
    expect(r).toEqual({
      name: 'py-devs',
      type: 'internal',
      members: [expect.any(String)],
      policies: ['default'],
      metadata: { k: 'v' },
      by_name_id: true,
      listed: true,
      alias_canonical: true,
      alias_name: 'ext-devs',
      alias_listed: true,
      alias_delete_status: 204,
      delete_status: 204,
      gone: 'InvalidPath',
    });
  });

  it('runs token role operations and token tidy', async () => {
    expect(await step('token_roles')).toEqual({
      write_status: 204,
      allowed_policies: ['ci', 'default'],
      orphan: true,
      renewable: false,
      listed: ['py-ci'],
      created_policies: ['ci', 'default'],
      created_orphan: true,
      lookup_role: 'py-ci',
      lookup_path: 'auth/token/create/py-ci',
      delete_status: 204,
      after_delete: 'InvalidPath',
      // Vault starts a tidy in the background and answers 202 Accepted.
      tidy_status: 202,
    });
  });

  it('lists secrets mounts and audit devices', async () => {
    const r = (await step('sys_lists')) as { mounts: Record<string, string>; mounts_top_level: Record<string, string>; audits: Record<string, unknown> } & Record<string, unknown>;
    expect(r.mounts).toMatchObject({ 'sys/': 'system', 'identity/': 'identity' });
    expect(r.mounts_top_level).toEqual(r.mounts);
    expect(r.sys_accessor).toBe(true);
    expect(r.audits_status).toBe(200);
    expect(r.audits['file/']).toMatchObject({ type: 'file', path: 'file/', options: { file_path: auditFile } });
  });

  it('raises hvac’s exception classes for Vault’s status codes', async () => {
    expect(await step('errors')).toEqual({
      no_token: 'Forbidden',
      bad_token: 'Forbidden',
      missing_policy: 'InvalidPath',
      bad_input: 'InvalidRequest',
      authenticated: true,
      unauthenticated: false,
    });
  });
});
