/**
 * auth/cloud/role/:role and LIST roles against the real server, without a provider: defaults, names,
 * every rule a write is checked against (a refused write leaves the role as it was, or absent), the token
 * fields, the deprecated names, the mount's TTL limits, the HMAC key, list, delete and the ACL. Unique-ID
 * resolution against cloudsim is in role-resolve.test.ts; the roles here use wildcard ARNs or turn
 * resolution off, so nothing reaches a provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRole, roleHmacKey } from '../../../../src/secrets/auth/cloud/role-entry.js';
import { startInProcessServer, type InProcessServer } from '../../../support/in-process.js';
import { statusOf } from '../../../support/wait.js';

let srv: InProcessServer;
const c = () => srv.client();
const ALL_ROLES = 'arn:aws:iam::123456789012:role/*';

const write = (name: string, body: Record<string, unknown>, mount = 'cloud') => c().secrets('POST', `auth/${mount}/role/${name}`, { body });
const read = async (name: string, mount = 'cloud') => (await c().secrets('GET', `auth/${mount}/role/${name}`))?.data as Record<string, unknown> | undefined;
const readOrUndefined = async (name: string) => {
  const r = await statusOf(read(name));
  return r.code === 404 ? undefined : read(name);
};

/** The write fails with a 400 whose message matches, and the role reads exactly as before (or stays absent). */
async function expectRefused(name: string, body: Record<string, unknown>, message: RegExp): Promise<void> {
  const before = await readOrUndefined(name);
  const r = await statusOf(write(name, body));
  expect(r.code, JSON.stringify(body)).toBe(400);
  expect(r.message).toMatch(message);
  expect(await readOrUndefined(name)).toEqual(before);
}

beforeAll(async () => {
  srv = await startInProcessServer();
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
});
afterAll(async () => srv?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('defaults', () => {
  const tokenDefaults = {
    token_bound_cidrs: [],
    token_explicit_max_ttl: 0,
    token_max_ttl: 0,
    token_no_default_policy: false,
    token_num_uses: 0,
    token_period: 0,
    token_policies: [],
    token_type: 'default',
    token_ttl: 0,
  };
  const emptyBinds = {
    bound_ami_id: [],
    bound_account_id: [],
    bound_ec2_instance_id: [],
    bound_iam_principal_arn: [],
    bound_iam_principal_id: [],
    bound_iam_role_arn: [],
    bound_iam_instance_profile_arn: [],
    bound_region: [],
    bound_subnet_id: [],
    bound_vpc_id: [],
  };

  it('a minimal role is an iam role resolving unique IDs, with every other field empty, and exactly these keys', async () => {
    expect(await write('minimal', { bound_iam_principal_arn: ALL_ROLES })).toBeUndefined();
    const role = await read('minimal');
    expect(role).toEqual({
      ...emptyBinds,
      ...tokenDefaults,
      auth_type: 'iam',
      bound_iam_principal_arn: [ALL_ROLES],
      inferred_entity_type: '',
      inferred_cloud_region: '',
      resolve_cloud_unique_ids: true,
      role_id: expect.stringMatching(UUID),
      role_tag: '',
      allow_instance_migration: false,
      disallow_reauthentication: false,
    });
  });

  it('a minimal ec2 role has the same defaults', async () => {
    await write('minimal-ec2', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    expect(await read('minimal-ec2')).toEqual({
      ...emptyBinds,
      ...tokenDefaults,
      auth_type: 'ec2',
      bound_ami_id: ['ami-1'],
      inferred_entity_type: '',
      inferred_cloud_region: '',
      resolve_cloud_unique_ids: true,
      role_id: expect.stringMatching(UUID),
      role_tag: '',
      allow_instance_migration: false,
      disallow_reauthentication: false,
    });
  });

  it('each role gets its own role_id, which later writes keep', async () => {
    await write('id-a', { bound_iam_principal_arn: ALL_ROLES });
    await write('id-b', { bound_iam_principal_arn: ALL_ROLES });
    const a = (await read('id-a'))!.role_id;
    expect(a).not.toBe((await read('id-b'))!.role_id);
    await write('id-a', { token_ttl: 60 });
    expect((await read('id-a'))!.role_id).toBe(a);
  });

  it('a missing role reads as 404', async () => {
    expect((await statusOf(read('never-written'))).code).toBe(404);
  });
});

describe('names', () => {
  it('are case-insensitive: any casing reads, updates and deletes the one lower-cased role', async () => {
    await write('MixedCase', { bound_iam_principal_arn: ALL_ROLES });
    expect((await read('mixedcase'))?.auth_type).toBe('iam');
    await write('MIXEDCASE', { token_ttl: 120 });
    expect((await read('mixedCASE'))?.token_ttl).toBe(120);
    expect((await c().secrets('LIST', 'auth/cloud/roles'))?.data?.keys).toContain('mixedcase');
    expect((await c().secrets('LIST', 'auth/cloud/roles'))?.data?.keys).not.toContain('MixedCase');
    await c().secrets('DELETE', 'auth/cloud/role/MiXeDcAsE');
    expect((await statusOf(read('mixedcase'))).code).toBe(404);
  });

  it('must be letters, digits, "_", "-" and "." (no ":" or ",", which role tags use as separators)', async () => {
    await expectRefused('bad:name', { bound_iam_principal_arn: ALL_ROLES }, /invalid role name "bad:name"/);
    await expectRefused('bad,name', { bound_iam_principal_arn: ALL_ROLES }, /invalid role name/);
    await expectRefused('-dash', { bound_iam_principal_arn: ALL_ROLES }, /invalid role name/);
    await write('ok_name-1.2', { bound_iam_principal_arn: ALL_ROLES });
    expect((await read('ok_name-1.2'))?.auth_type).toBe('iam');
  });
});

describe('what a write is checked against', () => {
  it('a role needs at least one constraint, on create and on update', async () => {
    await expectRefused('no-binds', {}, /at least one bound parameter should be specified on the role/);
    await expectRefused('no-binds', { auth_type: 'ec2', token_ttl: 60 }, /at least one bound parameter/);
    await write('emptied', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    await expectRefused('emptied', { bound_ami_id: [] }, /at least one bound parameter/);
  });

  describe('a constraint the auth type does not check is refused', () => {
    const instanceBinds = ['bound_ami_id', 'bound_account_id', 'bound_vpc_id', 'bound_subnet_id', 'bound_iam_role_arn', 'bound_iam_instance_profile_arn', 'bound_ec2_instance_id'];
    for (const field of instanceBinds) {
      it(`${field}: refused on iam without inference, accepted on ec2 and on iam inferring ec2_instance`, async () => {
        const name = `r2-${field.replace(/_/g, '-')}`;
        await expectRefused(name, { [field]: 'x-1' }, new RegExp(`specified ${field} but not specifying ec2 auth_type or inferring ec2_instance`));
        await write(`${name}-ec2`, { auth_type: 'ec2', [field]: 'x-1' });
        expect((await read(`${name}-ec2`))?.[field]).toEqual(['x-1']);
        await write(`${name}-inf`, { [field]: 'x-1', inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
        expect((await read(`${name}-inf`))?.[field]).toEqual(['x-1']);
      });
    }

    it('bound_region applies as the other instance constraints: refused on iam without inference, accepted on ec2 and when inferring', async () => {
      await expectRefused('r2-region', { bound_region: 'us-east-1' }, /specified bound_region but not specifying ec2 auth_type or inferring ec2_instance/);
      await write('r2-region', { auth_type: 'ec2', bound_region: 'us-east-1,eu-west-1' });
      expect((await read('r2-region'))?.bound_region).toEqual(['us-east-1', 'eu-west-1']);
      await write('r2-region-inf', { bound_region: 'us-east-1', inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
      expect((await read('r2-region-inf'))?.bound_region).toEqual(['us-east-1']);
    });

    it('bound_iam_principal_arn is for iam roles only', async () => {
      await expectRefused('r2-principal', { auth_type: 'ec2', bound_iam_principal_arn: ALL_ROLES }, /specified bound_iam_principal_arn but not specifying iam auth_type/);
    });

    it('an update adding an instance constraint to an iam role is refused and the role stays as it was', async () => {
      await write('r2-update', { bound_iam_principal_arn: ALL_ROLES, token_ttl: 30 });
      await expectRefused('r2-update', { bound_vpc_id: 'vpc-1', token_ttl: 60 }, /specified bound_vpc_id/);
      expect((await read('r2-update'))?.token_ttl).toBe(30);
    });
  });

  it('resolve_cloud_unique_ids cannot go from true to false; false stays false and may be sent again', async () => {
    await write('r5', { bound_iam_principal_arn: ALL_ROLES });
    await expectRefused('r5', { resolve_cloud_unique_ids: false }, /changing resolve_cloud_unique_ids from true to false is not allowed/);
    await write('r5-off', { bound_iam_principal_arn: ALL_ROLES, resolve_cloud_unique_ids: false });
    expect((await read('r5-off'))?.resolve_cloud_unique_ids).toBe(false);
    await write('r5-off', { resolve_cloud_unique_ids: false, token_ttl: 5 });
    expect(await read('r5-off')).toMatchObject({ resolve_cloud_unique_ids: false, token_ttl: 5 });
  });

  it('resolve_cloud_unique_ids is true on a new role unless sent false', async () => {
    await write('r6', { bound_iam_principal_arn: ALL_ROLES });
    expect((await read('r6'))?.resolve_cloud_unique_ids).toBe(true);
  });

  it('without resolution, a role ARN with a path is refused with the ARN to bind instead', async () => {
    const withPath = 'arn:aws:iam::123456789012:role/team/app/deployer';
    const r = await statusOf(write('r7', { bound_iam_principal_arn: withPath, resolve_cloud_unique_ids: false }));
    expect(r.code).toBe(400);
    expect(r.message).toContain('bound_iam_principal_arn');
    expect(r.message).toContain('resolve_cloud_unique_ids');
    expect(r.message).toContain('bind arn:aws:iam::123456789012:role/deployer');
    expect((await statusOf(read('r7'))).code).toBe(404);
    // A trailing wildcard matches by prefix against the full ARN, path included, so it may have one.
    await write('r7', { bound_iam_principal_arn: ['arn:aws:iam::123456789012:role/team/*', 'arn:aws:iam::123456789012:role/deployer'], resolve_cloud_unique_ids: false });
    expect((await read('r7'))?.bound_iam_principal_arn).toEqual(['arn:aws:iam::123456789012:role/team/*', 'arn:aws:iam::123456789012:role/deployer']);
    await expectRefused('r7', { bound_iam_principal_arn: withPath }, /contains a path/);
  });
});

describe('refused combinations', () => {
  it('allow_instance_migration and disallow_reauthentication are mutually exclusive', async () => {
    await expectRefused('e-both', { auth_type: 'ec2', bound_ami_id: 'ami-1', allow_instance_migration: true, disallow_reauthentication: true }, /cannot specify both disallow_reauthentication=true and allow_instance_migration=true/);
    await write('e-both', { auth_type: 'ec2', bound_ami_id: 'ami-1', allow_instance_migration: true });
    await expectRefused('e-both', { disallow_reauthentication: true }, /cannot specify both disallow_reauthentication=true and allow_instance_migration=true/);
    await write('e-both', { disallow_reauthentication: true, allow_instance_migration: false });
    expect(await read('e-both')).toMatchObject({ disallow_reauthentication: true, allow_instance_migration: false });
  });

  it('allow_instance_migration and disallow_reauthentication are for ec2 roles only', async () => {
    await expectRefused('e-migrate', { bound_iam_principal_arn: ALL_ROLES, allow_instance_migration: true }, /specified allow_instance_migration when not using ec2 auth type/);
    await expectRefused('e-migrate', { bound_iam_principal_arn: ALL_ROLES, disallow_reauthentication: false }, /specified disallow_reauthentication when not using ec2 auth type/);
  });

  it('role_tag is for ec2 roles only, and at most 127 characters', async () => {
    await expectRefused('e-tag', { bound_iam_principal_arn: ALL_ROLES, role_tag: 'VaultRole' }, /tried to enable role_tag when not using ec2 auth method/);
    await expectRefused('e-tag', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'k'.repeat(128) }, /length of role tag exceeds the EC2 key limit of 127 characters/);
    await write('e-tag', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'k'.repeat(127) });
    expect((await read('e-tag'))?.role_tag).toBe('k'.repeat(127));
  });

  it('inferencing needs an iam role, the value ec2_instance, and a region; a region needs inferencing', async () => {
    const inst = { bound_ami_id: 'ami-1' };
    await expectRefused('e-infer', { ...inst, inferred_entity_type: 'ec2_instance' }, /specified inferred_entity_type but not inferred_cloud_region/);
    await expectRefused('e-infer', { ...inst, inferred_cloud_region: 'us-east-1', bound_iam_principal_arn: ALL_ROLES }, /specified inferred_cloud_region but not inferred_entity_type/);
    await expectRefused('e-infer', { ...inst, inferred_entity_type: 'lambda', inferred_cloud_region: 'us-east-1' }, /specified invalid inferred_entity_type: lambda/);
    await expectRefused('e-infer', { ...inst, auth_type: 'ec2', inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' }, /specified inferred_entity_type but didn't allow iam auth_type/);
    await write('e-infer', { ...inst, inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
    expect(await read('e-infer')).toMatchObject({ auth_type: 'iam', inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1' });
    // Turning inferencing off again takes the instance constraints with it.
    await expectRefused('e-infer', { inferred_entity_type: '', inferred_cloud_region: '' }, /specified bound_ami_id but not specifying ec2 auth_type or inferring ec2_instance/);
  });

  it('auth_type must be ec2 or iam and cannot change', async () => {
    await expectRefused('e-auth', { auth_type: 'gcp', bound_iam_principal_arn: ALL_ROLES }, /auth_type/);
    await write('e-auth', { auth_type: 'IAM', bound_iam_principal_arn: ALL_ROLES });
    expect((await read('e-auth'))?.auth_type).toBe('iam');
    await expectRefused('e-auth', { auth_type: 'ec2', bound_ami_id: 'ami-1' }, /changing auth_type on a role is not allowed/);
    await write('e-auth', { auth_type: 'iam', token_ttl: 9 });
    expect((await read('e-auth'))?.token_ttl).toBe(9);
  });
});

describe('token fields', () => {
  const base = { bound_iam_principal_arn: ALL_ROLES };

  it('are stored as given, durations read back in seconds, and only the sent fields change on update', async () => {
    await write('t-all', {
      ...base,
      token_ttl: '1h',
      token_max_ttl: 7200,
      token_explicit_max_ttl: '3h',
      token_period: '30m',
      token_policies: 'dev, ops',
      token_bound_cidrs: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'],
      token_no_default_policy: true,
      token_num_uses: 3,
      token_type: 'service',
    });
    const expected = {
      token_ttl: 3600,
      token_max_ttl: 7200,
      token_explicit_max_ttl: 10800,
      token_period: 1800,
      token_policies: ['dev', 'ops'],
      token_bound_cidrs: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'],
      token_no_default_policy: true,
      token_num_uses: 3,
      token_type: 'service',
    };
    expect(await read('t-all')).toMatchObject(expected);
    await write('t-all', { token_ttl: 60 });
    expect(await read('t-all')).toMatchObject({ ...expected, token_ttl: 60 });
    await write('t-all', { token_policies: [] });
    expect(await read('t-all')).toMatchObject({ ...expected, token_ttl: 60, token_policies: [] });
  });

  it("refuse negative values, naming the field", async () => {
    for (const field of ['token_ttl', 'token_max_ttl', 'token_period', 'token_num_uses', 'token_explicit_max_ttl']) {
      await expectRefused('t-neg', { ...base, [field]: -1 }, new RegExp(`'${field}' cannot be negative`));
    }
    await expectRefused('t-neg', { ...base, ttl: -5 }, /'ttl' cannot be negative/);
  });

  it('refuse a ttl above the max ttl, also when the two come from different writes', async () => {
    await expectRefused('t-ttl', { ...base, token_ttl: 600, token_max_ttl: 300 }, /'token_ttl' cannot be greater than 'token_max_ttl'/);
    await write('t-ttl', { ...base, token_ttl: 600 });
    await expectRefused('t-ttl', { token_max_ttl: 300 }, /'token_ttl' cannot be greater than 'token_max_ttl'/);
    await expectRefused('t-ttl', { ttl: 900, max_ttl: 800 }, /'ttl' cannot be greater than 'max_ttl'/);
    await write('t-ttl', { token_max_ttl: 600 });
    expect(await read('t-ttl')).toMatchObject({ token_ttl: 600, token_max_ttl: 600 });
  });

  it('batch tokens cannot be periodic or have a use limit', async () => {
    await expectRefused('t-batch', { ...base, token_type: 'batch', token_period: 60 }, /'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens/);
    await expectRefused('t-batch', { ...base, token_type: 'batch', token_num_uses: 2 }, /'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count/);
    await expectRefused('t-batch', { ...base, token_type: 'batch', period: 60 }, /periodic tokens/);
    await write('t-batch', { ...base, token_num_uses: 2 });
    await expectRefused('t-batch', { token_type: 'batch' }, /limited use count/);
    await write('t-batch', { token_type: 'batch', token_num_uses: 0 });
    expect((await read('t-batch'))?.token_type).toBe('batch');
  });

  it('refuse an unknown token_type', async () => {
    await expectRefused('t-type', { ...base, token_type: 'default-service' }, /token_type/);
  });

  it('refuse a token_bound_cidrs entry that is neither a CIDR block nor an address, naming the field and the entry', async () => {
    await expectRefused('t-cidr', { ...base, token_bound_cidrs: '10.0.0.0/8,not-an-ip' }, /token_bound_cidrs.*"not-an-ip"/);
    await expectRefused('t-cidr', { ...base, token_bound_cidrs: ['10.0.0.0/33'] }, /token_bound_cidrs.*"10.0.0.0\/33"/);
  });

  it('a token_max_ttl above the mount maximum is only a warning; a token_period above it is refused', async () => {
    const warned = await write('t-mount', { ...base, token_max_ttl: '800h', token_ttl: '769h' });
    expect(warned?.warnings).toEqual([
      'Given ttl of 2768400 seconds greater than current mount/system default of 2764800 seconds; ttl will be capped at login time',
      'Given max ttl of 2880000 seconds greater than current mount/system default of 2764800 seconds; max ttl will be capped at login time',
    ]);
    expect((await read('t-mount'))?.token_max_ttl).toBe(2880000);
    await expectRefused('t-mount', { token_period: '800h' }, /period of '800h0m0s' is greater than the backend's maximum lease TTL of '768h0m0s'/);
  });

  it("the limits are the mount's own when it was given some", async () => {
    await c().secrets('POST', 'sys/auth/cloud-short', { body: { type: 'cloud', config: { max_lease_ttl: '1h', default_lease_ttl: '30m' } } });
    const warned = await write('short', { ...base, token_max_ttl: '2h' }, 'cloud-short');
    expect(warned?.warnings).toEqual(['Given max ttl of 7200 seconds greater than current mount/system default of 3600 seconds; max ttl will be capped at login time']);
    const r = await statusOf(write('short', { token_period: '2h' }, 'cloud-short'));
    expect(r).toMatchObject({ code: 400 });
    expect(r.message).toMatch(/period of '2h0m0s' is greater than the backend's maximum lease TTL of '1h0m0s'/);
    await write('short', { token_period: '1h' }, 'cloud-short');
    expect((await read('short', 'cloud-short'))?.token_period).toBe(3600);
  });
});

describe('deprecated names', () => {
  const base = { bound_iam_principal_arn: ALL_ROLES };

  it('policies is stored as token_policies (sanitised), read back under both names; the write answers nothing, as Vault', async () => {
    const res = await write('d-pol', { ...base, policies: 'Dev,ops,dev' });
    expect(res).toBeUndefined();
    expect(await read('d-pol')).toMatchObject({ token_policies: ['dev', 'ops'], policies: ['dev', 'ops'] });
    // Sending the current name clears the deprecated one.
    expect(await write('d-pol', { token_policies: ['admin'] })).toBeUndefined();
    const role = await read('d-pol');
    expect(role?.token_policies).toEqual(['admin']);
    expect(role).not.toHaveProperty('policies');
  });

  it('when both names are sent, the token_* value wins', async () => {
    await write('d-both', { ...base, policies: 'a', token_policies: 'b', ttl: 10, token_ttl: 20 });
    expect(await read('d-both')).toMatchObject({ token_policies: ['b'], policies: ['b'], token_ttl: 20, ttl: 20 });
  });

  it('ttl, max_ttl and period set the token_* fields and read back only while non-zero', async () => {
    await write('d-ttl', { ...base, ttl: '1m', max_ttl: '2m', period: '3m' });
    expect(await read('d-ttl')).toMatchObject({ token_ttl: 60, ttl: 60, token_max_ttl: 120, max_ttl: 120, token_period: 180, period: 180 });
    await write('d-ttl', { token_ttl: 30, token_max_ttl: 100, token_period: 0 });
    const role = await read('d-ttl');
    expect(role).toMatchObject({ token_ttl: 30, token_max_ttl: 100, token_period: 0 });
    expect(role).not.toHaveProperty('ttl');
    expect(role).not.toHaveProperty('max_ttl');
    expect(role).not.toHaveProperty('period');
  });

  it('a role written with the current names shows none of the deprecated ones', async () => {
    await write('d-none', { ...base, token_policies: 'x', token_ttl: 5 });
    const role = await read('d-none');
    for (const key of ['ttl', 'max_ttl', 'period', 'policies']) expect(role).not.toHaveProperty(key);
  });
});

describe('the role-tag HMAC key', () => {
  it('is a random UUID made on the first save, kept sealed, never read back, and kept by updates', async () => {
    await write('hmac', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole', hmac_key: 'mine' });
    const { services } = srv.server;
    const accessor = services.mounts.get('auth/cloud/')!.accessor;
    const stored = readRole(services, accessor, 'hmac')!;
    const key = roleHmacKey(services, accessor, 'hmac', stored);
    expect(key).toMatch(UUID);
    expect(JSON.stringify(stored)).not.toContain(key);
    const res = await read('hmac');
    expect(JSON.stringify(res)).not.toContain(key);
    expect(res).not.toHaveProperty('hmac_key');
    await write('hmac', { bound_ami_id: 'ami-2' });
    expect(roleHmacKey(services, accessor, 'hmac', readRole(services, accessor, 'hmac')!)).toBe(key);
    await write('hmac-2', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    expect(roleHmacKey(services, accessor, 'hmac-2', readRole(services, accessor, 'hmac-2')!)).not.toBe(key);
  });
});

describe('list and delete', () => {
  it('LIST roles and LIST role give the sorted names; none is a 404; delete is a 204, also for a missing role', async () => {
    await c().secrets('POST', 'sys/auth/cloud-list', { body: { type: 'cloud' } });
    expect((await statusOf(c().secrets('LIST', 'auth/cloud-list/roles'))).code).toBe(404);
    expect((await statusOf(c().secrets('LIST', 'auth/cloud-list/role'))).code).toBe(404);
    for (const name of ['web', 'Batch', 'api']) await write(name, { bound_iam_principal_arn: ALL_ROLES }, 'cloud-list');
    expect((await c().secrets('LIST', 'auth/cloud-list/roles'))?.data?.keys).toEqual(['api', 'batch', 'web']);
    expect((await c().secrets('LIST', 'auth/cloud-list/role'))?.data?.keys).toEqual(['api', 'batch', 'web']);
    expect((await c().secrets('GET', 'auth/cloud-list/roles', { query: { list: 'true' } }))?.data?.keys).toEqual(['api', 'batch', 'web']);
    expect(await c().secrets('DELETE', 'auth/cloud-list/role/batch')).toBeUndefined();
    expect(await c().secrets('DELETE', 'auth/cloud-list/role/batch')).toBeUndefined();
    expect((await statusOf(read('batch', 'cloud-list'))).code).toBe(404);
    expect((await c().secrets('LIST', 'auth/cloud-list/roles'))?.data?.keys).toEqual(['api', 'web']);
    await c().secrets('DELETE', 'auth/cloud-list/role/api');
    await c().secrets('DELETE', 'auth/cloud-list/role/web');
    expect((await statusOf(c().secrets('LIST', 'auth/cloud-list/roles'))).code).toBe(404);
  });
});

describe('ACL', () => {
  async function tokenWith(policy: string, rules: string): Promise<string> {
    await c().secrets('POST', `sys/policies/acl/${policy}`, { body: { policy: rules } });
    const created = await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } });
    return created!.auth!.client_token as string;
  }

  it('a token without a policy on auth/cloud/role/* gets 403 for every operation', async () => {
    await write('guarded', { bound_iam_principal_arn: ALL_ROLES });
    const other = srv.client(await tokenWith('not-roles', 'path "auth/cloud/config/*" { capabilities = ["read", "update", "create", "list", "delete"] }'));
    expect((await statusOf(other.secrets('GET', 'auth/cloud/role/guarded'))).code).toBe(403);
    expect((await statusOf(other.secrets('POST', 'auth/cloud/role/guarded', { body: { token_ttl: 1 } }))).code).toBe(403);
    expect((await statusOf(other.secrets('POST', 'auth/cloud/role/new-one', { body: { bound_iam_principal_arn: ALL_ROLES } }))).code).toBe(403);
    expect((await statusOf(other.secrets('DELETE', 'auth/cloud/role/guarded'))).code).toBe(403);
    expect((await statusOf(other.secrets('LIST', 'auth/cloud/roles'))).code).toBe(403);
    expect((await read('guarded'))?.token_ttl).toBe(0);
    expect((await statusOf(read('new-one'))).code).toBe(404);
  });

  it('writing a new role needs create, changing an existing one needs update', async () => {
    await write('existing', { bound_iam_principal_arn: ALL_ROLES });
    const updater = srv.client(await tokenWith('role-updater', 'path "auth/cloud/role/*" { capabilities = ["update", "read"] }'));
    expect(await updater.secrets('POST', 'auth/cloud/role/existing', { body: { token_ttl: 7 } })).toBeUndefined();
    expect((await read('existing'))?.token_ttl).toBe(7);
    expect((await statusOf(updater.secrets('POST', 'auth/cloud/role/brand-new', { body: { bound_iam_principal_arn: ALL_ROLES } }))).code).toBe(403);
    const creator = srv.client(await tokenWith('role-creator', 'path "auth/cloud/role/*" { capabilities = ["create"] }'));
    expect(await creator.secrets('POST', 'auth/cloud/role/Brand-New', { body: { bound_iam_principal_arn: ALL_ROLES } })).toBeUndefined();
    expect((await statusOf(creator.secrets('POST', 'auth/cloud/role/brand-new', { body: { token_ttl: 1 } }))).code).toBe(403);
  });
});
