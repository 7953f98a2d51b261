/**
 * Unique-ID resolution of bound_iam_principal_arn on role writes, against cloudsim through the mount's
 * config/client: users, roles (with a path), instance profiles, wildcards left alone, failures that store
 * nothing, recreated principals, turning resolution on, and the STS role of a satellite account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfigFor, startCloudSim, type CloudSim } from '../../../../src/cloudsim/index.js';
import { startInProcessServer, type InProcessServer } from '../../../support/in-process.js';
import { statusOf } from '../../../support/wait.js';

const HOME = '123456789012';
const SATELLITE = '210987654321';
const STRANGER = '333333333333';

let srv: InProcessServer;
let sim: CloudSim;
const c = () => srv.client();
const write = (mount: string, name: string, body: Record<string, unknown>) => c().secrets('POST', `auth/${mount}/role/${name}`, { body });
const read = async (mount: string, name: string) => (await c().secrets('GET', `auth/${mount}/role/${name}`))?.data as Record<string, unknown> | undefined;
const iamCalls = (from = 0) => sim.requests.slice(from).filter((r) => r.service === 'iam');

async function mountWithClient(mount: string, provider: CloudSim): Promise<void> {
  await c().secrets('POST', `sys/auth/${mount}`, { body: { type: 'cloud' } });
  await pointClientAt(mount, provider);
}

async function pointClientAt(mount: string, provider: CloudSim): Promise<void> {
  await c().secrets('POST', `auth/${mount}/config/client`, { body: { ...clientConfigFor(provider), max_retries: 0 } });
}

beforeAll(async () => {
  sim = await startCloudSim({ account: HOME });
  srv = await startInProcessServer();
  await mountWithClient('cloud', sim);
});
afterAll(async () => {
  await srv?.close();
  await sim?.close();
});

describe('resolution on write', () => {
  it('user and role ARNs resolve to their unique IDs, in order; a wildcard ARN is not looked up', async () => {
    const alice = sim.addUser({ name: 'alice' });
    const deployer = sim.addRole({ name: 'deployer' });
    const from = sim.requests.length;
    const arns = [alice.arn, `arn:aws:iam::${HOME}:role/ci-*`, deployer.arn];
    await write('cloud', 'both', { bound_iam_principal_arn: arns });
    expect(await read('cloud', 'both')).toMatchObject({ bound_iam_principal_arn: arns, bound_iam_principal_id: [alice.userId, deployer.roleId], resolve_cloud_unique_ids: true });
    expect(iamCalls(from).map((r) => [r.action, r.params.UserName ?? r.params.RoleName, r.status])).toEqual([
      ['GetUser', 'alice', 200],
      ['GetRole', 'deployer', 200],
    ]);
  });

  it('an ARN with a path resolves through GetRole by the role name', async () => {
    const pathy = sim.addRole({ name: 'pathy', path: '/team/app/' });
    expect(pathy.arn).toBe(`arn:aws:iam::${HOME}:role/team/app/pathy`);
    const from = sim.requests.length;
    await write('cloud', 'pathy', { bound_iam_principal_arn: pathy.arn });
    expect((await read('cloud', 'pathy'))?.bound_iam_principal_id).toEqual([pathy.roleId]);
    expect(iamCalls(from).map((r) => [r.action, r.params.RoleName])).toEqual([['GetRole', 'pathy']]);
  });

  it('an instance-profile ARN resolves through GetInstanceProfile', async () => {
    const profile = sim.addInstanceProfile({ name: 'web-profile', path: '/web/' });
    await write('cloud', 'profile', { bound_iam_principal_arn: profile.arn });
    expect((await read('cloud', 'profile'))?.bound_iam_principal_id).toEqual([profile.id]);
  });

  it('a role with only wildcard ARNs, or with resolution off, makes no provider call', async () => {
    const from = sim.requests.length;
    await write('cloud', 'wild', { bound_iam_principal_arn: [`arn:aws:iam::${HOME}:role/*`, `arn:aws:iam::${HOME}:user/ops/*`] });
    await write('cloud', 'unresolved', { bound_iam_principal_arn: `arn:aws:iam::${HOME}:role/not-there`, resolve_cloud_unique_ids: false });
    expect(sim.requests.length).toBe(from);
    expect((await read('cloud', 'wild'))?.bound_iam_principal_id).toEqual([]);
    expect((await read('cloud', 'unresolved'))?.bound_iam_principal_id).toEqual([]);
  });

  it('an update that does not send bound_iam_principal_arn keeps the IDs without asking the provider', async () => {
    const keeper = sim.addRole({ name: 'keeper' });
    await write('cloud', 'keeper', { bound_iam_principal_arn: keeper.arn });
    const from = sim.requests.length;
    await write('cloud', 'keeper', { token_ttl: 60 });
    expect(sim.requests.length).toBe(from);
    expect(await read('cloud', 'keeper')).toMatchObject({ bound_iam_principal_id: [keeper.roleId], token_ttl: 60 });
  });
});

describe('resolution failures', () => {
  it('an ARN that does not resolve fails the create with a 400 quoting it, and nothing is stored', async () => {
    const missing = `arn:aws:iam::${HOME}:role/nobody`;
    const r = await statusOf(write('cloud', 'unresolvable', { bound_iam_principal_arn: missing }));
    expect(r.code).toBe(400);
    expect(r.message).toMatch(new RegExp(`^unable to resolve ARN "${missing}" to internal ID: iam:GetRole failed: NoSuchEntity: The role with name nobody cannot be found`));
    expect((await statusOf(read('cloud', 'unresolvable'))).code).toBe(404);
  });

  it('a failed update leaves the role as it was, IDs included', async () => {
    const stays = sim.addUser({ name: 'stays' });
    await write('cloud', 'upd', { bound_iam_principal_arn: stays.arn, token_ttl: 10 });
    const before = await read('cloud', 'upd');
    const r = await statusOf(write('cloud', 'upd', { bound_iam_principal_arn: [stays.arn, `arn:aws:iam::${HOME}:user/ghost`], token_ttl: 20 }));
    expect(r.code).toBe(400);
    expect(r.message).toContain(`unable to resolve ARN "arn:aws:iam::${HOME}:user/ghost" to internal ID: iam:GetUser failed: NoSuchEntity`);
    expect(await read('cloud', 'upd')).toEqual(before);
  });

  it('a malformed ARN, an ARN of a session, and a provider failure are 400s naming the ARN', async () => {
    expect((await statusOf(write('cloud', 'bad', { bound_iam_principal_arn: 'deployer' }))).message).toBe(
      'unable to resolve ARN "deployer" to internal ID: error parsing arn "deployer": unrecognized arn: contains 1 colon-separated parts, expected 6',
    );
    const session = `arn:aws:sts::${HOME}:assumed-role/deployer/i-0123`;
    const s = await statusOf(write('cloud', 'bad', { bound_iam_principal_arn: session }));
    expect(s.code).toBe(400);
    expect(s.message).toContain(`unable to resolve ARN "${session}"`);
    expect(s.message).toContain(`bind arn:aws:iam::${HOME}:role/deployer instead`);
    sim.failNext('GetRole', { status: 500, code: 'ServiceFailure', message: 'try later' });
    const failed = await statusOf(write('cloud', 'bad', { bound_iam_principal_arn: `arn:aws:iam::${HOME}:role/deployer` }));
    expect(failed.code).toBe(400);
    expect(failed.message).toMatch(/unable to resolve ARN .* to internal ID: iam:GetRole failed: ServiceFailure: try later \(status 500\)/);
    expect((await statusOf(read('cloud', 'bad'))).code).toBe(404);
  });
});

describe('recreated principals and turning resolution on', () => {
  it('re-sending the ARN of a principal deleted and recreated with the same name picks up its new unique ID', async () => {
    // The same account seen before and after the role was recreated: a second provider where "app"
    // has another unique ID.
    const after = await startCloudSim({ account: HOME });
    try {
      const original = sim.addRole({ name: 'app' });
      const recreated = after.addRole({ name: 'app' });
      expect(recreated.arn).toBe(original.arn);
      await mountWithClient('cloud-recreate', sim);
      await write('cloud-recreate', 'app', { bound_iam_principal_arn: original.arn });
      expect((await read('cloud-recreate', 'app'))?.bound_iam_principal_id).toEqual([original.roleId]);

      await pointClientAt('cloud-recreate', after);
      await write('cloud-recreate', 'app', { token_ttl: 30 });
      expect((await read('cloud-recreate', 'app'))?.bound_iam_principal_id).toEqual([original.roleId]);
      await write('cloud-recreate', 'app', { bound_iam_principal_arn: original.arn });
      expect((await read('cloud-recreate', 'app'))?.bound_iam_principal_id).toEqual([recreated.roleId]);
    } finally {
      await after.close();
    }
  });

  it('false → true resolves the ARNs already bound, and is refused (role unchanged) when one does not resolve', async () => {
    const late = sim.addUser({ name: 'late' });
    await write('cloud', 'late', { bound_iam_principal_arn: late.arn, resolve_cloud_unique_ids: false });
    expect((await read('cloud', 'late'))?.bound_iam_principal_id).toEqual([]);
    await write('cloud', 'late', { resolve_cloud_unique_ids: true });
    expect(await read('cloud', 'late')).toMatchObject({ resolve_cloud_unique_ids: true, bound_iam_principal_id: [late.userId] });

    await write('cloud', 'late-bad', { bound_iam_principal_arn: `arn:aws:iam::${HOME}:user/never`, resolve_cloud_unique_ids: false });
    const before = await read('cloud', 'late-bad');
    const r = await statusOf(write('cloud', 'late-bad', { resolve_cloud_unique_ids: true }));
    expect(r.code).toBe(400);
    expect(r.message).toContain(`unable to resolve ARN "arn:aws:iam::${HOME}:user/never" to internal ID`);
    expect(await read('cloud', 'late-bad')).toEqual(before);
  });

  it('true → false is refused on a resolved role', async () => {
    const fixed = sim.addRole({ name: 'fixed' });
    await write('cloud', 'fixed', { bound_iam_principal_arn: fixed.arn });
    const before = await read('cloud', 'fixed');
    const r = await statusOf(write('cloud', 'fixed', { resolve_cloud_unique_ids: false }));
    expect(r).toEqual({ code: 400, message: 'changing resolve_cloud_unique_ids from true to false is not allowed' });
    expect(await read('cloud', 'fixed')).toEqual(before);
  });
});

describe('concurrent writes', () => {
  it('a write that changed the role while another looked up unique IDs is not lost', async () => {
    const slow = sim.addRole({ name: 'slow' });
    await write('cloud', 'race', { bound_iam_principal_arn: `arn:aws:iam::${HOME}:role/*`, token_ttl: 1 });
    sim.delayNext('GetRole', 500);
    const resolving = write('cloud', 'race', { bound_iam_principal_arn: slow.arn });
    await new Promise((r) => setTimeout(r, 100));
    await write('cloud', 'race', { token_policies: 'meanwhile' });
    await resolving;
    expect(await read('cloud', 'race')).toMatchObject({ bound_iam_principal_arn: [slow.arn], bound_iam_principal_id: [slow.roleId], token_policies: ['meanwhile'], token_ttl: 1 });
  });
});

describe('accounts', () => {
  it("a satellite account's ARNs are resolved with its config/sts role; an account with neither fails", async () => {
    const reader = sim.addRole({ name: 'svc-reader', accountId: SATELLITE });
    const worker = sim.addRole({ name: 'worker', accountId: SATELLITE });
    const stranger = `arn:aws:iam::${STRANGER}:role/worker`;
    await c().secrets('POST', `auth/cloud/config/sts/${SATELLITE}`, { body: { sts_role: reader.arn } });

    const from = sim.requests.length;
    await write('cloud', 'satellite', { bound_iam_principal_arn: worker.arn });
    expect((await read('cloud', 'satellite'))?.bound_iam_principal_id).toEqual([worker.roleId]);
    const assume = sim.requests.slice(from).find((r) => r.action === 'AssumeRole');
    expect(assume).toMatchObject({ status: 200, accessKeyId: sim.rootCredentials.accessKeyId });
    expect(assume?.params.RoleArn).toBe(reader.arn);
    const getRole = iamCalls(from).find((r) => r.action === 'GetRole');
    expect(getRole).toMatchObject({ status: 200, params: expect.objectContaining({ RoleName: 'worker' }) });
    expect(getRole?.accessKeyId).toMatch(/^ASIA/);

    const r = await statusOf(write('cloud', 'stranger', { bound_iam_principal_arn: stranger }));
    expect(r.code).toBe(400);
    expect(r.message).toBe(`unable to resolve ARN "${stranger}" to internal ID: unable to fetch client for account ID "${STRANGER}" -- default client is for account "${HOME}"`);
    expect((await statusOf(read('cloud', 'stranger'))).code).toBe(404);
  });
});
