import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function tokenWithPolicy(name: string, text: string): Promise<string> {
  await ts.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
  const { secret } = await ts.server.services.tokens.create({
    policies: [name],
    path: 'auth/token/create',
    mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

async function mounts(token?: string): Promise<Record<string, Record<string, unknown>>> {
  return (await ts.client(token).secrets('GET', 'sys/auth'))!.data as Record<string, Record<string, unknown>>;
}

describe('sys/auth', () => {
  it('lists the token mount, keyed by its path relative to auth/, in Vault\'s shape', async () => {
    const token = (await mounts())['token/'];
    expect(token).toEqual({
      accessor: expect.stringMatching(/^auth_token_[0-9a-f]{8}$/),
      config: { default_lease_ttl: 0, max_lease_ttl: 0, token_type: 'default-service' },
      description: expect.any(String),
      external_entropy_access: false,
      local: false,
      options: null,
      plugin_version: '',
      running_plugin_version: `v${ts.server.services.version}+builtin.svc`,
      running_sha256: '',
      seal_wrap: false,
      type: 'token',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('enables a cloud mount with a description and TTLs', async () => {
    const res = await ts.client().secrets('POST', 'sys/auth/cloud', {
      body: { type: 'cloud', description: 'machines', config: { default_lease_ttl: '1h', max_lease_ttl: 7200 } },
    });
    expect(res).toBeUndefined();
    const cloud = (await mounts())['cloud/'];
    expect(cloud).toMatchObject({
      type: 'cloud',
      description: 'machines',
      accessor: expect.stringMatching(/^auth_cloud_[0-9a-f]{8}$/),
      config: { default_lease_ttl: 3600, max_lease_ttl: 7200, token_type: 'default-service' },
    });
    expect(cloud.accessor).not.toBe((await mounts())['token/'].accessor);
    expect((await ts.client().secrets('GET', 'sys/auth/cloud'))!.data).toEqual(cloud);
  });

  it("enables Vault's type name aws as the cloud method, recorded and read as cloud", async () => {
    expect(await ts.client().secrets('POST', 'sys/auth/aws', { body: { type: 'aws' } })).toBeUndefined();
    const aws = (await mounts())['aws/'];
    expect(aws).toMatchObject({ type: 'cloud', accessor: expect.stringMatching(/^auth_cloud_[0-9a-f]{8}$/) });
    // The mount serves the cloud method's paths.
    expect((await ts.client().secrets('POST', 'auth/aws/role/web', { body: { auth_type: 'ec2', bound_ami_id: 'ami-1' } }))).toBeUndefined();
    expect((await ts.client().secrets('GET', 'auth/aws/role/web'))!.data).toMatchObject({ auth_type: 'ec2', bound_ami_id: ['ami-1'] });
  });

  it('enables at a nested path and gives every mount its own accessor', async () => {
    await ts.client().secrets('POST', 'sys/auth/teams/blue', { body: { type: 'cloud' } });
    await ts.client().secrets('POST', 'sys/auth/teams2', { body: { type: 'cloud' } });
    const all = await mounts();
    expect(all['teams/blue/'].type).toBe('cloud');
    const accessors = Object.values(all).map((m) => m.accessor);
    expect(new Set(accessors).size).toBe(accessors.length);
  });

  it('refuses a path already in use', async () => {
    await ts.client().secrets('POST', 'sys/auth/dup', { body: { type: 'cloud' } });
    const err = await apiError(ts.client().secrets('POST', 'sys/auth/dup', { body: { type: 'cloud' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('already in use');
    const token = await apiError(ts.client().secrets('POST', 'sys/auth/token', { body: { type: 'cloud' } }));
    expect(token.statusCode).toBe(400);
  });

  it('refuses a path inside or around another mount', async () => {
    await ts.client().secrets('POST', 'sys/auth/outer', { body: { type: 'cloud' } });
    const inside = await apiError(ts.client().secrets('POST', 'sys/auth/outer/inner', { body: { type: 'cloud' } }));
    expect([inside.statusCode, inside.errors[0]]).toEqual([400, expect.stringContaining('conflicts')]);
    const around = await apiError(ts.client().secrets('POST', 'sys/auth/teams', { body: { type: 'cloud' } }));
    expect([around.statusCode, around.errors[0]]).toEqual([400, expect.stringContaining('conflicts')]);
    expect(Object.keys(await mounts())).not.toContain('outer/inner/');
  });

  it('refuses an unknown type, a missing type and a second token method', async () => {
    const unknown = await apiError(ts.client().secrets('POST', 'sys/auth/weird', { body: { type: 'kerberos' } }));
    expect([unknown.statusCode, unknown.errors[0]]).toEqual([400, expect.stringContaining('"kerberos"')]);
    const missing = await apiError(ts.client().secrets('POST', 'sys/auth/weird', { body: {} }));
    expect([missing.statusCode, missing.errors[0]]).toEqual([400, expect.stringContaining('"type"')]);
    const token = await apiError(ts.client().secrets('POST', 'sys/auth/token2', { body: { type: 'token' } }));
    expect(token.statusCode).toBe(400);
    expect(Object.keys(await mounts())).not.toContain('weird/');
    expect(Object.keys(await mounts())).not.toContain('token2/');
  });

  it('checks the mount config', async () => {
    const inverted = await apiError(
      ts.client().secrets('POST', 'sys/auth/inverted', { body: { type: 'cloud', config: { default_lease_ttl: '2h', max_lease_ttl: '1h' } } }),
    );
    expect([inverted.statusCode, inverted.errors]).toEqual([400, ['given default lease TTL greater than given max lease TTL']]);
    const badTtl = await apiError(ts.client().secrets('POST', 'sys/auth/badttl', { body: { type: 'cloud', config: { max_lease_ttl: 'soon' } } }));
    expect([badTtl.statusCode, badTtl.errors[0]]).toEqual([400, expect.stringContaining('config.max_lease_ttl')]);
    const badType = await apiError(ts.client().secrets('POST', 'sys/auth/badtype', { body: { type: 'cloud', config: { token_type: 'shiny' } } }));
    expect([badType.statusCode, badType.errors[0]]).toEqual([400, expect.stringContaining('config.token_type')]);
    expect(Object.keys(await mounts())).not.toContain('inverted/');
  });

  it('warns about config keys it does not use instead of dropping them silently', async () => {
    const res = await ts.client().secrets('POST', 'sys/auth/warned', {
      body: { type: 'cloud', config: { listing_visibility: 'unauth', token_type: 'batch' } },
    });
    expect(res!.warnings).toEqual(['Endpoint ignored these unrecognized config keys: [listing_visibility]']);
    expect((await mounts())['warned/'].config).toMatchObject({ token_type: 'batch' });
  });

  it('disables a mount; disabling it again, or a path never mounted, succeeds', async () => {
    await ts.client().secrets('POST', 'sys/auth/gone', { body: { type: 'cloud' } });
    expect(await ts.client().secrets('DELETE', 'sys/auth/gone')).toBeUndefined();
    expect(Object.keys(await mounts())).not.toContain('gone/');
    expect(await ts.client().secrets('DELETE', 'sys/auth/gone')).toBeUndefined();
    const read = await apiError(ts.client().secrets('GET', 'sys/auth/gone'));
    expect([read.statusCode, read.errors]).toEqual([400, ['No auth engine at auth/gone/']]);
  });

  it('never disables the token mount', async () => {
    const err = await apiError(ts.client().secrets('DELETE', 'sys/auth/token'));
    expect(err.statusCode).toBe(400);
    expect(Object.keys(await mounts())).toContain('token/');
  });

  it('needs sudo to enable, read or disable, but only read to list', async () => {
    const noSudo = await tokenWithPolicy(
      'auth-admin-no-sudo',
      'path "sys/auth" {\n  capabilities = ["read"]\n}\npath "sys/auth/*" {\n  capabilities = ["create", "read", "update", "delete"]\n}\n',
    );
    expect(Object.keys(await mounts(noSudo))).toContain('token/');
    for (const [method, path] of [
      ['POST', 'sys/auth/by-admin'],
      ['GET', 'sys/auth/token'],
      ['DELETE', 'sys/auth/by-admin'],
    ]) {
      const err = await apiError(ts.client(noSudo).secrets(method, path, method === 'POST' ? { body: { type: 'cloud' } } : {}));
      expect([method, err.statusCode, err.errors]).toEqual([method, 403, ['permission denied']]);
    }
    expect(Object.keys(await mounts())).not.toContain('by-admin/');

    const withSudo = await tokenWithPolicy('auth-admin', 'path "sys/auth/*" {\n  capabilities = ["update", "read", "delete", "sudo"]\n}\n');
    await ts.client(withSudo).secrets('POST', 'sys/auth/by-admin', { body: { type: 'cloud' } });
    expect(Object.keys(await mounts())).toContain('by-admin/');
    await ts.client(withSudo).secrets('DELETE', 'sys/auth/by-admin');
    expect(Object.keys(await mounts())).not.toContain('by-admin/');
  });
});
