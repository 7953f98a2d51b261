/**
 * What an ec2 login issues: a token with the role's token settings, an entity and alias named per
 * config/identity with the selected metadata, renewal that re-checks the instance, its access-list entry
 * and role and applies the role's current values, and revocation with the mount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountCloud, startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
beforeAll(async () => {
  w = await startLoginWorld();
});
afterAll(async () => w?.close());

let roles = 0;
async function loginWith(role: Record<string, unknown>, opts: { mount?: string } = {}) {
  const name = `t${++roles}`;
  const mount = opts.mount ?? 'cloud';
  await w.writeRole(name, { auth_type: 'ec2', bound_account_id: w.sim.account, ...role }, mount);
  const inst = w.sim.addInstance();
  const pkcs7 = (await w.documents(inst.instanceId)).rsa2048;
  const answer = await w.login({ role: name, pkcs7 }, mount);
  return { name, inst, pkcs7, answer, auth: answer.auth };
}

const lookup = async (token: string) => (await w.srv.client().secrets('POST', 'auth/token/lookup', { body: { token } }))?.data as Record<string, unknown>;
const renewSelf = (token: string) => w.srv.client(token).secrets('POST', 'auth/token/renew-self', { body: {} });

describe('token settings', () => {
  it('ttl, max_ttl, explicit_max_ttl, num_uses, bound cidrs and policies come from the role', async () => {
    const { auth } = await loginWith({ token_ttl: '10m', token_max_ttl: '2h', token_explicit_max_ttl: '1h', token_num_uses: 5, token_bound_cidrs: '127.0.0.1/32', token_policies: 'x,y' });
    expect(auth).toMatchObject({ lease_duration: 600, renewable: true, num_uses: 5, token_policies: ['default', 'x', 'y'], token_type: 'service', orphan: true });
    const data = await lookup(auth.client_token);
    expect(data).toMatchObject({ explicit_max_ttl: 3600, bound_cidrs: ['127.0.0.1/32'], path: 'auth/cloud/login', display_name: expect.stringMatching(/^cloud-i-/) });
  });

  it('token_no_default_policy leaves default out', async () => {
    const { auth } = await loginWith({ token_policies: 'x', token_no_default_policy: true });
    expect(auth.token_policies).toEqual(['x']);
  });

  it('token_period makes a periodic token', async () => {
    const { auth } = await loginWith({ token_period: '30m' });
    expect(auth.lease_duration).toBe(1800);
    expect(await lookup(auth.client_token)).toMatchObject({ period: 1800 });
  });

  it('token_type batch gives a batch token', async () => {
    const { auth } = await loginWith({ token_type: 'batch' });
    expect(auth).toMatchObject({ token_type: 'batch', renewable: false, accessor: '' });
    expect(auth.client_token).toMatch(/^svb\./);
  });

  it('without token_ttl the mount default applies, capped by the mount maximum', async () => {
    await mountCloud(w.srv, 'short', w.sim, {}, { default_lease_ttl: '20m', max_lease_ttl: '1h' });
    const { auth } = await loginWith({}, { mount: 'short' });
    expect(auth.lease_duration).toBe(1200);
    const capped = await loginWith({ token_ttl: '3h' }, { mount: 'short' });
    expect(capped.auth.lease_duration).toBe(3600);
    expect(capped.answer.warnings?.join(' ')).toContain('capped');
  });

  it("a role's default token_type follows the mount's tuned one; a mount tuned to service or batch forces it", async () => {
    await mountCloud(w.srv, 'typed', w.sim);
    const tune = (token_type: string) => w.srv.client().secrets('POST', 'sys/auth/typed/tune', { body: { token_type } });
    await tune('default-batch');
    expect((await loginWith({ token_type: 'default' }, { mount: 'typed' })).auth.token_type).toBe('batch');
    expect((await loginWith({ token_type: 'service' }, { mount: 'typed' })).auth.token_type).toBe('service');
    await tune('service');
    expect((await loginWith({ token_type: 'batch' }, { mount: 'typed' })).auth.token_type).toBe('service');
  });
});

describe('identity', () => {
  it('by default the alias is the role ID, with account_id and auth_type as metadata; logins of the role share the entity', async () => {
    const { name, auth } = await loginWith({});
    const role = (await w.srv.client().secrets('GET', `auth/cloud/role/${name}`))?.data as { role_id: string };
    const entity = (await w.srv.client().secrets('GET', `identity/entity/id/${auth.entity_id}`))?.data as { aliases: Array<Record<string, unknown>> };
    expect(entity.aliases).toEqual([expect.objectContaining({ name: role.role_id, metadata: { account_id: w.sim.account, auth_type: 'ec2' } })]);
    const inst2 = w.sim.addInstance();
    const again = await w.login({ role: name, pkcs7: (await w.documents(inst2.instanceId)).rsa2048 });
    expect(again.auth.entity_id).toBe(auth.entity_id);
  });

  it('ec2_alias instance_id and image_id name the alias; ec2_metadata picks the facts', async () => {
    const c = w.srv.client();
    await c.secrets('POST', 'auth/cloud/config/identity', { body: { ec2_alias: 'instance_id', ec2_metadata: 'ami_id,instance_id,region' } });
    try {
      const { inst, auth } = await loginWith({});
      expect(auth.metadata).toMatchObject({ ami_id: inst.imageId, instance_id: inst.instanceId, region: 'us-east-1' });
      expect(auth.metadata).not.toHaveProperty('account_id');
      const entity = (await c.secrets('GET', `identity/entity/id/${auth.entity_id}`))?.data as { aliases: Array<Record<string, unknown>> };
      expect(entity.aliases[0]).toMatchObject({ name: inst.instanceId, metadata: { ami_id: inst.imageId, instance_id: inst.instanceId, region: 'us-east-1' } });

      await c.secrets('POST', 'auth/cloud/config/identity', { body: { ec2_alias: 'image_id', ec2_metadata: [] } });
      const byImage = await loginWith({});
      expect(byImage.auth.metadata).toEqual({ role: byImage.name, role_tag_max_ttl: '0s', nonce: expect.any(String) });
      const e2 = (await c.secrets('GET', `identity/entity/id/${byImage.auth.entity_id}`))?.data as { aliases: Array<Record<string, unknown>> };
      expect(e2.aliases[0]).toMatchObject({ name: byImage.inst.imageId });
    } finally {
      await c.secrets('POST', 'auth/cloud/config/identity', { body: { ec2_alias: 'role_id', ec2_metadata: 'default' } });
    }
  });

  it("the entity's policies are added to the token's", async () => {
    const { auth, name } = await loginWith({});
    await w.srv.client().secrets('POST', `identity/entity/id/${auth.entity_id}`, { body: { policies: 'from-entity' } });
    const inst = w.sim.addInstance();
    const again = await w.login({ role: name, pkcs7: (await w.documents(inst.instanceId)).rsa2048 });
    expect(again.auth.identity_policies).toEqual(['from-entity']);
    expect(again.auth.policies).toContain('from-entity');
  });

  it('a disabled entity cannot log in', async () => {
    const { auth, name } = await loginWith({});
    await w.srv.client().secrets('POST', `identity/entity/id/${auth.entity_id}`, { body: { disabled: true } });
    const inst = w.sim.addInstance();
    expect(await w.loginError({ role: name, pkcs7: (await w.documents(inst.instanceId)).rsa2048 })).toMatchObject({ status: 403 });
  });
});

describe('renewal', () => {
  it("renewing applies the role's current token_ttl and moves the access-list expiry", async () => {
    const { name, inst, auth } = await loginWith({ token_ttl: '10m' });
    const entryBefore = (await w.srv.client().secrets('GET', `auth/cloud/identity-accesslist/${inst.instanceId}`))?.data as { last_updated_time: string };
    await w.writeRole(name, { token_ttl: '20m' });
    const renewed = await renewSelf(auth.client_token);
    expect(renewed?.auth?.lease_duration).toBe(1200);
    const entryAfter = (await w.srv.client().secrets('GET', `auth/cloud/identity-accesslist/${inst.instanceId}`))?.data as { last_updated_time: string };
    expect(Date.parse(entryAfter.last_updated_time)).toBeGreaterThanOrEqual(Date.parse(entryBefore.last_updated_time));
  });

  it('renewal asks the provider again: a stopped instance cannot renew', async () => {
    const { inst, auth } = await loginWith({});
    const from = w.sim.requests.length;
    await renewSelf(auth.client_token);
    expect(w.sim.requests.slice(from).map((r) => r.action)).toContain('DescribeInstances');
    w.sim.setInstanceState(inst.instanceId, 'stopped');
    await expect(renewSelf(auth.client_token)).rejects.toMatchObject({ statusCode: 400, errors: [expect.stringContaining("not in 'running' state")] });
  });

  it('without its access-list entry, or its role, a token cannot renew', async () => {
    const a = await loginWith({});
    await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${a.inst.instanceId}`);
    await expect(renewSelf(a.auth.client_token)).rejects.toMatchObject({ statusCode: 400, errors: [expect.stringContaining('access list identity entry')] });
    const b = await loginWith({});
    await w.srv.client().secrets('DELETE', `auth/cloud/role/${b.name}`);
    await expect(renewSelf(b.auth.client_token)).rejects.toMatchObject({ statusCode: 400, errors: [expect.stringContaining('role entry not found')] });
    // A refused renewal leaves the token as it was.
    expect(await lookup(b.auth.client_token)).toMatchObject({ accessor: b.auth.accessor });
  });

  it('the role max TTL in force at renewal caps it', async () => {
    const { name, auth } = await loginWith({ token_ttl: '10m' });
    await w.writeRole(name, { token_ttl: '1m', token_max_ttl: '5m' });
    const renewed = await w.srv.client(auth.client_token).secrets('POST', 'auth/token/renew-self', { body: { increment: '1h' } });
    expect(renewed?.auth?.lease_duration).toBeLessThanOrEqual(300);
    expect(renewed?.auth?.lease_duration).toBeGreaterThan(290);
  });
});

describe('the mount', () => {
  it('disabling the mount revokes its tokens and removes its aliases', async () => {
    const c = w.srv.client();
    await mountCloud(w.srv, 'gone', w.sim);
    const { auth } = await loginWith({}, { mount: 'gone' });
    const before = (await c.secrets('GET', `identity/entity/id/${auth.entity_id}`))?.data as { aliases: unknown[] };
    expect(before.aliases).toHaveLength(1);
    await c.secrets('DELETE', 'sys/auth/gone');
    await expect(lookup(auth.client_token)).rejects.toMatchObject({ statusCode: 403 });
    const after = (await c.secrets('GET', `identity/entity/id/${auth.entity_id}`))?.data as { aliases: unknown[] | null };
    expect(after.aliases ?? []).toHaveLength(0);
  });
});

describe('renewal of an instance logged in to two roles', () => {
  it("each token renews with its own role's current values", async () => {
    await w.writeRole('first-role', { auth_type: 'ec2', bound_account_id: w.sim.account, token_ttl: '10m' });
    await w.writeRole('second-role', { auth_type: 'ec2', bound_account_id: w.sim.account, token_ttl: '30m' });
    const inst = w.sim.addInstance();
    const pkcs7 = (await w.documents(inst.instanceId)).rsa2048;
    const first = await w.login({ role: 'first-role', pkcs7 });
    const second = await w.login({ role: 'second-role', pkcs7, nonce: first.auth.metadata!.nonce });
    expect((await renewSelf(second.auth.client_token))?.auth?.lease_duration).toBe(1800);
    expect((await renewSelf(first.auth.client_token))?.auth?.lease_duration).toBe(600);
  });
});
