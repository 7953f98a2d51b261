/**
 * Which principals an iam role admits (bound_iam_principal_arn: unique IDs, canonical ARNs, wildcards
 * over the full ARN with its path), and what config/identity makes of a login: the entity alias's name
 * and the metadata on the token and the alias.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim, type SimUser } from '../../../../../src/cloudsim/index.js';
import { mountCloud, signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

const ACCOUNT = '123456789012';
let w: LoginWorld;
let alice: SimUser;

const root = () => w.srv.client();
const roleId = async (name: string, mount = 'cloud') => (await root().secrets('GET', `auth/${mount}/role/${name}`))!.data!.role_id as string;
const notBound = (arn: string, role: string) => ({ status: 400, message: `IAM Principal "${arn}" does not belong to the role "${role}"` });

beforeAll(async () => {
  w = await startLoginWorld({ sim: { account: ACCOUNT } });
  alice = w.sim.addUser({ name: 'alice' });
});
afterAll(async () => w?.close());

describe('bound_iam_principal_arn', () => {
  it('an exact user ARN (resolved to its unique ID) admits that user and no other', async () => {
    const bob = w.sim.addUser({ name: 'bob' });
    await w.writeRole('alice-only', { bound_iam_principal_arn: alice.arn });
    expect((await root().secrets('GET', 'auth/cloud/role/alice-only'))!.data!.bound_iam_principal_id).toEqual([alice.userId]);
    expect((await w.login({ role: 'alice-only', ...signedCallerIdentity(alice) })).auth.metadata?.role_id).toBe(await roleId('alice-only'));
    expect(await w.loginError({ role: 'alice-only', ...signedCallerIdentity(bob) })).toEqual(notBound(bob.arn, 'alice-only'));
  });

  it('a user deleted and recreated under the same name no longer matches a resolved bind; the canonical ARN still matches with resolution off', async () => {
    // cloudsim cannot delete a user, so the "recreated" erin lives in a second simulator of the same
    // account: same ARN, new unique ID. The mount's client configuration is switched over to it.
    const first = await startCloudSim({ account: ACCOUNT });
    let second: CloudSim | undefined;
    try {
      const erin1 = first.addUser({ name: 'erin' });
      await mountCloud(w.srv, 'recreated', first);
      await w.writeRole('erin', { bound_iam_principal_arn: erin1.arn }, 'recreated');
      await w.writeRole('erin-by-arn', { bound_iam_principal_arn: erin1.arn, resolve_cloud_unique_ids: false }, 'recreated');
      expect((await w.login({ role: 'erin', ...signedCallerIdentity(erin1) }, 'recreated')).auth.metadata?.auth_type).toBe('iam');

      second = await startCloudSim({ account: ACCOUNT });
      const erin2 = second.addUser({ name: 'erin' });
      expect(erin2.arn).toBe(erin1.arn);
      expect(erin2.userId).not.toBe(erin1.userId);
      await root().secrets('POST', 'auth/recreated/config/client', {
        body: { access_key: second.rootCredentials.accessKeyId, secret_key: second.rootCredentials.secretAccessKey, endpoint: second.url, iam_endpoint: second.url, sts_endpoint: second.url },
      });

      expect(await w.loginError({ role: 'erin', ...signedCallerIdentity(erin2) }, 'recreated')).toEqual(notBound(erin2.arn, 'erin'));
      expect((await w.login({ role: 'erin-by-arn', ...signedCallerIdentity(erin2) }, 'recreated')).auth.metadata?.auth_type).toBe('iam');
      // Re-sending the same ARN resolves it again, to the new user.
      await w.writeRole('erin', { bound_iam_principal_arn: erin1.arn }, 'recreated');
      expect((await root().secrets('GET', 'auth/recreated/role/erin'))!.data!.bound_iam_principal_id).toEqual([erin2.userId]);
      expect((await w.login({ role: 'erin', ...signedCallerIdentity(erin2) }, 'recreated')).auth.metadata?.auth_type).toBe('iam');
    } finally {
      await first.close();
      await second?.close();
    }
  });

  it('resolution off: the canonical ARN (path omitted) matches; the ARN with the path does not', async () => {
    const pat = w.sim.addUser({ name: 'pat', path: '/ops/' });
    expect(pat.arn).toBe(`arn:aws:iam::${ACCOUNT}:user/ops/pat`);
    await w.writeRole('pat-canonical', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/pat`, resolve_cloud_unique_ids: false });
    await w.writeRole('pat-with-path', { bound_iam_principal_arn: pat.arn, resolve_cloud_unique_ids: false });
    expect((await w.login({ role: 'pat-canonical', ...signedCallerIdentity(pat) })).auth.metadata?.auth_type).toBe('iam');
    expect(await w.loginError({ role: 'pat-with-path', ...signedCallerIdentity(pat) })).toEqual(notBound(pat.arn, 'pat-with-path'));
  });

  it('a role ARN with a path, bound exactly, admits the sessions of that role (whose ARNs have no path)', async () => {
    const role = w.sim.addRole({ name: 'app-deployer', path: '/team/app/' });
    await w.writeRole('app', { bound_iam_principal_arn: role.arn });
    const session = w.sim.assumeRole(role.arn, 'deploy-7');
    const { auth } = await w.login({ role: 'app', ...signedCallerIdentity(session) });
    expect(auth.metadata?.role_id).toBe(await roleId('app'));
  });

  it('a wildcard matches by prefix: role/ci-* admits sessions of ci-deployer, not of web', async () => {
    const ci = w.sim.addRole({ name: 'ci-deployer' });
    const web = w.sim.addRole({ name: 'web' });
    await w.writeRole('ci', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:role/ci-*` });
    expect((await w.login({ role: 'ci', ...signedCallerIdentity(w.sim.assumeRole(ci.arn, 'job-1')) })).auth.metadata?.auth_type).toBe('iam');
    const webSession = w.sim.assumeRole(web.arn, 'job-2');
    expect(await w.loginError({ role: 'ci', ...signedCallerIdentity(webSession) })).toEqual(notBound(webSession.arn, 'ci'));
  });

  it("a wildcard with a path matches the principal's full ARN, which is looked up (GetRole), not the session ARN", async () => {
    const teamRole = w.sim.addRole({ name: 'builder', path: '/team/' });
    const outsider = w.sim.addRole({ name: 'team-lead' }); // role/team-lead: no /team/ path
    await w.writeRole('team', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:role/team/*` });
    const from = w.sim.requests.length;
    const session = w.sim.assumeRole(teamRole.arn, 's1');
    expect((await w.login({ role: 'team', ...signedCallerIdentity(session) })).auth.metadata?.auth_type).toBe('iam');
    expect(w.sim.requests.slice(from).filter((r) => r.service === 'iam').map((r) => [r.action, r.params.RoleName, r.status])).toEqual([['GetRole', 'builder', 200]]);
    const lead = w.sim.assumeRole(outsider.arn, 's2');
    expect(await w.loginError({ role: 'team', ...signedCallerIdentity(lead) })).toEqual(notBound(lead.arn, 'team'));
  });

  it('a wildcard over users looks the user up with GetUser', async () => {
    const ops = w.sim.addUser({ name: 'olga', path: '/ops/' });
    await w.writeRole('ops-users', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/ops/*` });
    const from = w.sim.requests.length;
    expect((await w.login({ role: 'ops-users', ...signedCallerIdentity(ops) })).auth.metadata?.auth_type).toBe('iam');
    expect(w.sim.requests.slice(from).filter((r) => r.service === 'iam').map((r) => [r.action, r.params.UserName])).toEqual([['GetUser', 'olga']]);
    expect(await w.loginError({ role: 'ops-users', ...signedCallerIdentity(alice) })).toEqual(notBound(alice.arn, 'ops-users'));
  });

  it('a failed lookup of the full ARN is a 400 saying so', async () => {
    const lost = w.sim.addRole({ name: 'lost-role' });
    await w.writeRole('lost', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:role/lost-*` });
    const session = w.sim.assumeRole(lost.arn, 's');
    w.sim.failNext('GetRole', { status: 403, code: 'AccessDenied', message: 'not allowed' });
    const r = await w.loginError({ role: 'lost', ...signedCallerIdentity(session) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error looking up full ARN of entity .*lost-role.* when attempting login for role "lost"/);
  });

  it('a wildcard at both ends matches anywhere in the full ARN', async () => {
    const r = w.sim.addRole({ name: 'nightly-deploy-bot' });
    await w.writeRole('anywhere', { bound_iam_principal_arn: '*deploy*' });
    expect((await w.login({ role: 'anywhere', ...signedCallerIdentity(w.sim.assumeRole(r.arn, 'n1')) })).auth.metadata?.auth_type).toBe('iam');
    expect(await w.loginError({ role: 'anywhere', ...signedCallerIdentity(alice) })).toEqual(notBound(alice.arn, 'anywhere'));
  });

  it('resolution off: a role bound by its canonical ARN admits its sessions', async () => {
    const r = w.sim.addRole({ name: 'batch-runner', path: '/jobs/' });
    await w.writeRole('runner', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:role/batch-runner`, resolve_cloud_unique_ids: false });
    expect((await w.login({ role: 'runner', ...signedCallerIdentity(w.sim.assumeRole(r.arn, 'r1')) })).auth.metadata?.auth_type).toBe('iam');
  });

  it('a lone "*" bind matches no one', async () => {
    await w.writeRole('star', { bound_iam_principal_arn: '*' });
    expect(await w.loginError({ role: 'star', ...signedCallerIdentity(alice) })).toEqual(notBound(alice.arn, 'star'));
  });

  it('any one of several binds is enough', async () => {
    const zed = w.sim.addUser({ name: 'zed' });
    await w.writeRole('several', { bound_iam_principal_arn: [alice.arn, zed.arn] });
    for (const u of [alice, zed]) expect((await w.login({ role: 'several', ...signedCallerIdentity(u) })).auth.metadata?.auth_type).toBe('iam');
  });
});

describe('config/identity', () => {
  const entity = async (id: string) => (await root().secrets('GET', `identity/entity/id/${id}`))!.data! as { aliases: Array<{ name: string; metadata: Record<string, string>; mount_accessor: string }> };
  const configure = (body: Record<string, unknown>) => root().secrets('POST', 'auth/ident/config/identity', { body });
  let ivy: SimUser;
  let ivyRoleId: string;
  beforeAll(async () => {
    await mountCloud(w.srv, 'ident', w.sim);
    ivy = w.sim.addUser({ name: 'ivy', path: '/staff/' });
    await w.writeRole('ivy', { bound_iam_principal_arn: ivy.arn }, 'ident');
    ivyRoleId = await roleId('ivy', 'ident');
  });
  const loginIvy = async () => (await w.login({ role: 'ivy', ...signedCallerIdentity(ivy) }, 'ident')).auth;

  it('by default the alias is named by the role ID and carries account_id and auth_type', async () => {
    const auth = await loginIvy();
    const e = await entity(auth.entity_id);
    expect(e.aliases).toHaveLength(1);
    expect(e.aliases[0].name).toBe(ivyRoleId);
    expect(e.aliases[0].metadata).toEqual({ account_id: ACCOUNT, auth_type: 'iam' });
  });

  it('two logins of the same principal get the same entity', async () => {
    expect((await loginIvy()).entity_id).toBe((await loginIvy()).entity_id);
  });

  it('iam_alias unique_id names the alias by the caller unique ID; full_arn by the ARN the provider returned', async () => {
    await configure({ iam_alias: 'unique_id' });
    const byId = await loginIvy();
    expect((await entity(byId.entity_id)).aliases[0].name).toBe(ivy.userId);

    await configure({ iam_alias: 'full_arn' });
    const byArn = await loginIvy();
    expect((await entity(byArn.entity_id)).aliases[0].name).toBe(ivy.arn);
    expect(byArn.entity_id).not.toBe(byId.entity_id);

    await configure({ iam_alias: 'role_id' });
    expect((await entity((await loginIvy()).entity_id)).aliases[0].name).toBe(ivyRoleId);
  });

  it('with unique_id one principal is one entity whichever role it logs in to; with role_id each role is its own', async () => {
    await w.writeRole('ivy-too', { bound_iam_principal_arn: ivy.arn }, 'ident');
    const viaOther = async () => (await w.login({ role: 'ivy-too', ...signedCallerIdentity(ivy) }, 'ident')).auth.entity_id;
    expect(await viaOther()).not.toBe((await loginIvy()).entity_id);
    await configure({ iam_alias: 'unique_id' });
    expect(await viaOther()).toBe((await loginIvy()).entity_id);
    await configure({ iam_alias: 'role_id' });
  });

  it('full_arn of an assumed role is the session ARN; unique_id drops the session', async () => {
    const r = w.sim.addRole({ name: 'ident-role' });
    await w.writeRole('ident-role', { bound_iam_principal_arn: r.arn }, 'ident');
    const session = w.sim.assumeRole(r.arn, 'sess-1');
    await configure({ iam_alias: 'full_arn' });
    const a = (await w.login({ role: 'ident-role', ...signedCallerIdentity(session) }, 'ident')).auth;
    expect((await entity(a.entity_id)).aliases[0].name).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/ident-role/sess-1`);
    await configure({ iam_alias: 'unique_id' });
    const b = (await w.login({ role: 'ident-role', ...signedCallerIdentity(session) }, 'ident')).auth;
    expect((await entity(b.entity_id)).aliases[0].name).toBe(r.roleId);
    await configure({ iam_alias: 'role_id' });
  });

  it('full_arn does not notice a principal deleted and recreated under the same name: its logins keep the alias and entity; unique_id does', async () => {
    // As above, the recreated principal lives in a second simulator of the same account.
    const first = await startCloudSim({ account: ACCOUNT });
    let second: CloudSim | undefined;
    try {
      const before = first.addUser({ name: 'quinn' });
      await mountCloud(w.srv, 'by-arn', first);
      await root().secrets('POST', 'auth/by-arn/config/identity', { body: { iam_alias: 'full_arn' } });
      // Bound by name (no unique ID), so that the recreated user is admitted at all.
      await w.writeRole('quinn', { bound_iam_principal_arn: before.arn, resolve_cloud_unique_ids: false }, 'by-arn');
      const original = (await w.login({ role: 'quinn', ...signedCallerIdentity(before) }, 'by-arn')).auth.entity_id;

      second = await startCloudSim({ account: ACCOUNT });
      const after = second.addUser({ name: 'quinn' });
      expect(after.userId).not.toBe(before.userId);
      await root().secrets('POST', 'auth/by-arn/config/client', { body: { sts_endpoint: second.url } });
      const recreated = (await w.login({ role: 'quinn', ...signedCallerIdentity(after) }, 'by-arn')).auth.entity_id;
      expect(recreated).toBe(original);
      expect((await entity(recreated)).aliases.map((a) => a.name)).toEqual([before.arn]);

      await root().secrets('POST', 'auth/by-arn/config/identity', { body: { iam_alias: 'unique_id' } });
      const byId = (await w.login({ role: 'quinn', ...signedCallerIdentity(after) }, 'by-arn')).auth.entity_id;
      expect(byId).not.toBe(original);
    } finally {
      await first.close();
      await second?.close();
    }
  });

  it('iam_metadata selects canonical_arn, client_arn, client_user_id for the token and the alias', async () => {
    await configure({ iam_metadata: ['canonical_arn', 'client_arn', 'client_user_id'] });
    const auth = await loginIvy();
    const selected = { canonical_arn: `arn:aws:iam::${ACCOUNT}:user/ivy`, client_arn: ivy.arn, client_user_id: ivy.userId };
    expect(auth.metadata).toEqual({ ...selected, role_id: ivyRoleId });
    expect((await entity(auth.entity_id)).aliases[0].metadata).toEqual(selected);
  });

  it('iam_metadata [] leaves only role_id on the token and nothing on the alias; "default" restores the defaults', async () => {
    await configure({ iam_metadata: [] });
    const bare = await loginIvy();
    expect(bare.metadata).toEqual({ role_id: ivyRoleId });
    expect((await entity(bare.entity_id)).aliases[0].metadata).toEqual({});
    await configure({ iam_metadata: 'default' });
    const back = await loginIvy();
    expect(back.metadata).toEqual({ account_id: ACCOUNT, auth_type: 'iam', role_id: ivyRoleId });
    expect((await entity(back.entity_id)).aliases[0].metadata).toEqual({ account_id: ACCOUNT, auth_type: 'iam' });
  });

  it("the inferred fields are not set for a login that inferred nothing, even when selected", async () => {
    await configure({ iam_metadata: ['auth_type', 'inferred_entity_id', 'inferred_entity_type', 'inferred_cloud_region'] });
    expect((await loginIvy()).metadata).toEqual({ auth_type: 'iam', role_id: ivyRoleId });
    await configure({ iam_metadata: 'default' });
  });
});
