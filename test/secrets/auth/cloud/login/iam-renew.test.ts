/**
 * Renewal of iam login tokens (auth/token/renew-self): the role must still exist and still bind the
 * principal, an inferred instance must still run, and the role's current token settings apply within
 * the token's explicit max TTL and the mount's maximum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimUser } from '../../../../../src/cloudsim/index.js';
import { statusOf } from '../../../../support/wait.js';
import { mountCloud, signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

const ACCOUNT = '123456789012';
let w: LoginWorld;
let alice: SimUser;

const root = () => w.srv.client();
const renew = async (token: string) =>
  (await w.srv.client(token).secrets('POST', 'auth/token/renew-self', { body: {} }))!.auth as { lease_duration: number; client_token: string; policies: string[] };
const lookup = async (token: string) => (await w.srv.client(token).secrets('GET', 'auth/token/lookup-self'))!.data!;
const loginAs = async (role: string, who: Parameters<typeof signedCallerIdentity>[0] = alice, mount = 'cloud') =>
  (await w.login({ role, ...signedCallerIdentity(who) }, mount)).auth.client_token;

beforeAll(async () => {
  w = await startLoginWorld({ sim: { account: ACCOUNT } });
  alice = w.sim.addUser({ name: 'alice' });
});
afterAll(async () => w?.close());

describe('renewing an iam token', () => {
  it("succeeds and takes the role's current token_ttl", async () => {
    await w.writeRole('ttl', { bound_iam_principal_arn: alice.arn, token_ttl: 600 });
    const token = await loginAs('ttl');
    expect((await renew(token)).lease_duration).toBe(600);
    await w.writeRole('ttl', { token_ttl: 1200 });
    const renewed = await renew(token);
    expect(renewed.lease_duration).toBe(1200);
    expect(renewed.client_token).toBe(token);
    expect((await lookup(token)).ttl).toBeGreaterThan(1190);
  });

  it("is capped by the role's current token_max_ttl", async () => {
    await w.writeRole('maxttl', { bound_iam_principal_arn: alice.arn, token_ttl: 600 });
    const token = await loginAs('maxttl');
    // no TTL of its own any more (so the mount's 32 days), but a max of 5 minutes
    await w.writeRole('maxttl', { token_ttl: 0, token_max_ttl: 300 });
    const { lease_duration } = await renew(token);
    expect(lease_duration).toBeLessThanOrEqual(300);
    expect(lease_duration).toBeGreaterThan(290);
  });

  it("takes the role's current token_period, and keeps the policies the token was issued with", async () => {
    await w.writeRole('periodic', { bound_iam_principal_arn: alice.arn, token_period: 300, token_policies: 'first' });
    const token = await loginAs('periodic');
    await w.writeRole('periodic', { token_period: 500, token_policies: 'second' });
    const renewed = await renew(token);
    expect(renewed.lease_duration).toBe(500);
    expect(renewed.policies).toEqual(['default', 'first']);
    expect((await lookup(token)).period).toBe(500);
  });

  it("token_explicit_max_ttl is a hard cap: no renewal passes it, even after the role stops setting one", async () => {
    await w.writeRole('hard-cap', { bound_iam_principal_arn: alice.arn, token_ttl: 600, token_explicit_max_ttl: 900 });
    const token = await loginAs('hard-cap');
    await w.writeRole('hard-cap', { token_ttl: '2h', token_explicit_max_ttl: 0 });
    const renewed = await w.srv.client(token).secrets('POST', 'auth/token/renew-self', { body: { increment: '2h' } });
    expect(renewed?.auth?.lease_duration).toBeLessThanOrEqual(900);
    expect(renewed?.auth?.lease_duration).toBeGreaterThan(880);
    expect((await lookup(token)).explicit_max_ttl).toBe(900);
  });

  it("the mount's maximum TTL caps a renewal of a role without token_max_ttl", async () => {
    await mountCloud(w.srv, 'renew-short', w.sim, {}, { max_lease_ttl: '1h', default_lease_ttl: '10m' });
    await w.writeRole('uncapped', { bound_iam_principal_arn: alice.arn }, 'renew-short');
    const token = await loginAs('uncapped', alice, 'renew-short');
    const renewed = await w.srv.client(token).secrets('POST', 'auth/token/renew-self', { body: { increment: '5h' } });
    expect(renewed?.auth?.lease_duration).toBeLessThanOrEqual(3600);
    expect(renewed?.auth?.lease_duration).toBeGreaterThan(3580);
  });

  it('fails once the role is deleted, and the token is otherwise unchanged', async () => {
    await w.writeRole('doomed', { bound_iam_principal_arn: alice.arn, token_ttl: 600 });
    const token = await loginAs('doomed');
    const before = await lookup(token);
    await root().secrets('DELETE', 'auth/cloud/role/doomed');
    const r = await statusOf(renew(token));
    expect(r.code).toBeGreaterThanOrEqual(400);
    expect(r.code).toBeLessThan(500);
    expect(r.message).toMatch(/role entry not found|doomed/);
    const after = await lookup(token);
    expect(after.expire_time).toBe(before.expire_time);
    expect(after.policies).toEqual(before.policies);
    expect(after.meta).toEqual(before.meta);
  });

  it('fails once the role binds another principal: "no longer bound"', async () => {
    const other = w.sim.addUser({ name: 'other' });
    await w.writeRole('rebound', { bound_iam_principal_arn: alice.arn });
    const token = await loginAs('rebound');
    await w.writeRole('rebound', { bound_iam_principal_arn: other.arn });
    const r = await statusOf(renew(token));
    expect(r.code).toBe(400);
    expect(r.message).toMatch(new RegExp(`role "rebound" no longer bound to ARN "arn:aws:iam::${ACCOUNT}:user/alice"`));
  });

  it('succeeds when the new binds still admit the principal (a wildcard over its full ARN)', async () => {
    const pam = w.sim.addUser({ name: 'pam', path: '/eng/' });
    await w.writeRole('widened', { bound_iam_principal_arn: pam.arn });
    const token = await loginAs('widened', pam);
    await w.writeRole('widened', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/eng/*` });
    expect((await renew(token)).lease_duration).toBeGreaterThan(0);
    await w.writeRole('widened', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/ops/*` });
    expect((await statusOf(renew(token))).message).toMatch(/no longer bound/);
  });

  it('fails when the role started inferring an instance after the login', async () => {
    await w.writeRole('late-infer', { bound_iam_principal_arn: alice.arn });
    const token = await loginAs('late-infer');
    await w.writeRole('late-infer', { inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
    const r = await statusOf(renew(token));
    expect(r.code).toBeGreaterThanOrEqual(400);
    expect(r.code).toBeLessThan(500);
    expect(r.message).toMatch(/infer/);
  });

  it("re-checks an inferred instance: renewable while it runs, not once it stopped", async () => {
    const role = w.sim.addRole({ name: 'worker' });
    w.sim.addInstanceProfile({ name: 'worker-profile', roleName: 'worker' });
    const instance = w.sim.addInstance({ instanceProfile: 'worker-profile' });
    await w.writeRole('worker', { bound_iam_principal_arn: role.arn, inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
    const token = await loginAs('worker', w.sim.assumeRole(role.arn, instance.instanceId));
    const from = w.sim.requests.length;
    expect((await renew(token)).lease_duration).toBeGreaterThan(0);
    expect(w.sim.requests.slice(from).map((r) => [r.action, r.params['InstanceId.1']])).toContainEqual(['DescribeInstances', instance.instanceId]);
    w.sim.setInstanceState(instance.instanceId, 'stopped');
    const r = await statusOf(renew(token));
    expect(r.code).toBeGreaterThanOrEqual(400);
    expect(r.message).toContain(instance.instanceId);
  });

  it('does not depend on the token metadata: with iam_metadata [] (no auth_type) the token still renews as iam', async () => {
    await mountCloud(w.srv, 'nometa', w.sim);
    await root().secrets('POST', 'auth/nometa/config/identity', { body: { iam_metadata: [] } });
    await w.writeRole('bare', { bound_iam_principal_arn: alice.arn, token_ttl: 700 }, 'nometa');
    const token = await loginAs('bare', alice, 'nometa');
    expect(Object.keys((await lookup(token)).meta as Record<string, string>)).toEqual(['role_id']);
    expect((await renew(token)).lease_duration).toBe(700);
  });
});
