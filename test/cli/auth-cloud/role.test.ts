/**
 * `svc auth cloud role ...`, `role tag` and `denylist ...` as the built bin/svc against the real server:
 * list flags given comma-separated or repeated, aliases and durations reach the server as the role's
 * fields; a role tag printed by `role tag` can be deny-listed, read, listed and removed by its raw value,
 * including tags whose value holds '/'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { data, expectOk } from './cli-checks.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ client: false, cloud: { env: {} } });
  await srv.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
});
afterAll(async () => srv?.close());


const ok = (args: string[]) => expectOk(srv, args);

describe('svc auth cloud role', () => {
  it('writes a role from generated flags, reads it as json and as a table, lists and deletes it', async () => {
    const written = await ok([
      'auth', 'cloud', 'role', 'write',
      '-auth-type=ec2', '-bound-ami-id=ami-1,ami-2', '-bound-ami-id=ami-3', '-bound-region=us-east-1',
      '-token-policies=x', '-policy=y', '-token-ttl=1h', '-token-max-ttl=7200', '-token-num-uses=3', '-role-tag=SvcRole',
      '-disallow-reauthentication', 'Web',
    ]);
    expect(written.stdout).toBe('Success! Data written to: auth/cloud/role/Web\n');

    const role = data((await ok(['auth', 'cloud', 'role', 'read', '-format=json', 'web'])).stdout);
    expect(role).toMatchObject({
      auth_type: 'ec2',
      bound_ami_id: ['ami-1', 'ami-2', 'ami-3'],
      bound_region: ['us-east-1'],
      token_policies: ['x', 'y'],
      token_ttl: 3600,
      token_max_ttl: 7200,
      token_num_uses: 3,
      role_tag: 'SvcRole',
      disallow_reauthentication: true,
    });
    const table = (await ok(['auth', 'cloud', 'role', 'read', 'web'])).stdout;
    expect(table).toMatch(/^Key\s+Value$/m);
    expect(table).toMatch(/^token_ttl\s+1h$/m);
    expect(table).toMatch(/^bound_ami_id\s+\[ami-1 ami-2 ami-3\]$/m);

    // Only the flags given change on an existing role.
    await ok(['auth', 'cloud', 'role', 'write', '-bound-region=eu-west-1', 'web']);
    expect(data((await ok(['auth', 'cloud', 'role', 'read', '-format=json', 'web'])).stdout)).toMatchObject({ bound_region: ['eu-west-1'], bound_ami_id: ['ami-1', 'ami-2', 'ami-3'] });

    await ok(['auth', 'cloud', 'role', 'write', '-bound-iam-principal-arn=arn:aws:iam::123456789012:role/*', 'ci']);
    expect(JSON.parse((await ok(['auth', 'cloud', 'role', 'list', '-format=json'])).stdout)).toEqual(['ci', 'web']);

    expect((await ok(['auth', 'cloud', 'role', 'delete', 'ci'])).stdout).toBe('Success! Data deleted (if it existed) at: auth/cloud/role/ci\n');
    const gone = await srv.cli(['auth', 'cloud', 'role', 'read', 'ci']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No value found at auth/cloud/role/ci');
    expect((await ok(['auth', 'cloud', 'role', 'list'])).stdout.trimEnd().split('\n')).toEqual(['Keys', '----', 'web']);
  });

  it('a role the server refuses exits 2 with the server\'s message', async () => {
    const res = await srv.cli(['auth', 'cloud', 'role', 'write', '-auth-type=iam', '-bound-ami-id=ami-1', 'iam-with-ami']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Code: 400\. Errors:\n\n\* specified bound_ami_id but not specifying ec2 auth_type/m);
    expect((await srv.cli(['auth', 'cloud', 'role', 'read', 'iam-with-ami'])).code).toBe(2);
  });

  it('a bad duration is a usage error, before any request', async () => {
    const res = await srv.cli(['auth', 'cloud', 'role', 'write', '-token-ttl=soon', '-bound-ami-id=ami-1', 'x']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('invalid value "soon" for -token-ttl');
  });
});

describe('svc auth cloud role tag and denylist', () => {
  beforeAll(async () => {
    await ok(['auth', 'cloud', 'role', 'write', '-auth-type=ec2', '-bound-ami-id=ami-1', '-role-tag=SvcRole', '-token-policies=a,b', 'tagged']);
  });

  it('role tag prints tag_key and tag_value, and passes its flags to the server', async () => {
    const table = (await ok(['auth', 'cloud', 'role', 'tag', '-policies=a', '-max-ttl=30m', 'tagged'])).stdout;
    expect(table).toMatch(/^tag_key\s+SvcRole$/m);
    expect(table).toMatch(/^tag_value\s+v1:\S+$/m);

    const beyond = await srv.cli(['auth', 'cloud', 'role', 'tag', '-policies=c', 'tagged']);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toMatch(/subset/);
  });

  it('deny-lists a tag by its raw value, also one that holds "/", then reads, lists and removes it', async () => {
    // The tag's nonce and HMAC are base64: make one that holds '/', which a raw tag in the URL path would split.
    let tag = '';
    for (let i = 0; i < 40 && !tag.includes('/'); i++) tag = (await ok(['auth', 'cloud', 'role', 'tag', '-field=tag_value', 'tagged'])).stdout;
    expect(tag).toContain('/');

    expect((await srv.cli(['auth', 'cloud', 'denylist', 'list'])).code).toBe(2);
    const added = await ok(['auth', 'cloud', 'denylist', 'add', tag]);
    expect(added.stdout).toMatch(/^Success! Data written to: auth\/cloud\/roletag-denylist\/[A-Za-z0-9_-]+$/m);

    const entry = data((await ok(['auth', 'cloud', 'denylist', 'read', '-format=json', tag])).stdout);
    expect(Object.keys(entry).sort()).toEqual(['creation_time', 'expiration_time']);
    expect(JSON.parse((await ok(['auth', 'cloud', 'denylist', 'list', '-format=json'])).stdout)).toEqual([tag]);

    await ok(['auth', 'cloud', 'denylist', 'delete', tag]);
    const gone = await srv.cli(['auth', 'cloud', 'denylist', 'read', tag]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No value found');
  });

  it('a value that is not a role tag of the mount is refused by the server', async () => {
    const res = await srv.cli(['auth', 'cloud', 'denylist', 'add', 'v1:bm9uY2U=:r=tagged:d=false:m=false:forged']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Code: 400\. Errors:$/m);
    expect((await srv.cli(['auth', 'cloud', 'denylist', 'read', 'v1:bm9uY2U=:r=tagged:d=false:m=false:forged'])).code).toBe(2);
  });
});
