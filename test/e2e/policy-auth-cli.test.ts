import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeTempDir, startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let work: string;

const CI_POLICY = path.join(REPO, 'examples/policies/ci-deploy.hcl');

beforeAll(async () => {
  ts = await startTestServer();
  work = await makeTempDir('svc-policy-cli-');
});

afterAll(async () => {
  await ts?.close();
});

describe('svc policy', () => {
  it('writes a policy from a file and reads back its text', async () => {
    const write = await ts.cli(['policy', 'write', 'CI-Deploy', CI_POLICY]);
    expect(write).toMatchObject({ code: 0, stdout: 'Success! Uploaded policy: ci-deploy\n' });
    const read = await ts.cli(['policy', 'read', 'ci-deploy']);
    expect(read.code).toBe(0);
    expect(read.stdout).toBe(`${(await readFile(CI_POLICY, 'utf8')).trim()}\n`);
  });

  it('writes a policy from stdin', async () => {
    const text = 'path "secret/*" {\n  capabilities = ["read"]\n}\n';
    const write = await ts.cli(['policy', 'write', 'from-stdin', '-'], { input: text });
    expect(write).toMatchObject({ code: 0, stdout: 'Success! Uploaded policy: from-stdin\n' });
    const stored = await ts.client().secrets('GET', 'sys/policies/acl/from-stdin');
    expect(stored!.data!.policy).toBe(text);
  });

  it('prints the response data with -format=json, and the text alone with -field', async () => {
    const json = await ts.cli(['policy', 'read', '-format=json', 'default']);
    expect(json.code).toBe(0);
    const data = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(data.name).toBe('default');
    expect(data.policy).toContain('auth/token/lookup-self');
    const field = await ts.cli(['policy', 'read', '-field=name', 'default']);
    expect(field).toMatchObject({ code: 0, stdout: 'default' });
  });

  it('lists the policies, built-ins included', async () => {
    const list = await ts.cli(['policy', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['Keys', '----']);
    expect(lines).toEqual(expect.arrayContaining(['default', 'root', 'ci-deploy']));
    const json = await ts.cli(['policy', 'list', '-format=json']);
    expect(JSON.parse(json.stdout)).toEqual(expect.arrayContaining(['default', 'root']));
  });

  it('reports a policy that does not parse as a server error, with the problem', async () => {
    const bad = path.join(work, 'bad.hcl');
    await writeFile(bad, 'path "secret/*" {\n  capabilities = ["fly"]\n}\n');
    const write = await ts.cli(['policy', 'write', 'bad', bad]);
    expect(write.code).toBe(2);
    expect(write.stderr).toContain('unknown capability "fly"');
    expect((await ts.cli(['policy', 'read', 'bad'])).code).toBe(2);
  });

  it('reports a missing file as a local error', async () => {
    const write = await ts.cli(['policy', 'write', 'nofile', path.join(work, 'missing.hcl')]);
    expect(write.code).toBe(1);
    expect(write.stderr).toContain('missing.hcl');
  });

  it('deletes a policy, and refuses to delete root', async () => {
    await ts.cli(['policy', 'write', 'doomed', CI_POLICY]);
    const del = await ts.cli(['policy', 'delete', 'doomed']);
    expect(del).toMatchObject({ code: 0, stdout: 'Success! Deleted policy: doomed\n' });
    const read = await ts.cli(['policy', 'read', 'doomed']);
    expect(read.code).toBe(2);
    expect(read.stderr).toContain('No policy named: doomed');
    const root = await ts.cli(['policy', 'delete', 'root']);
    expect(root.code).toBe(2);
    expect(root.stderr).toContain('cannot delete "root" policy');
  });
});

describe('svc auth', () => {
  it('enables a method at its type by default', async () => {
    const enable = await ts.cli(['auth', 'enable', 'cloud']);
    expect(enable).toMatchObject({ code: 0, stdout: 'Success! Enabled cloud auth method at: cloud/\n' });
    expect(ts.server.services.mounts.get('auth/cloud/')?.type).toBe('cloud');
  });

  it('enables at a chosen path with a description and TTL flags generated from the field schemas', async () => {
    const enable = await ts.cli(['auth', 'enable', '-path=ci', '-description=CI machines', '-default-lease-ttl=1h', '-max-lease-ttl=2h', 'cloud']);
    expect(enable).toMatchObject({ code: 0, stdout: 'Success! Enabled cloud auth method at: ci/\n' });
    const mount = ts.server.services.mounts.get('auth/ci/');
    expect(mount).toMatchObject({ type: 'cloud', description: 'CI machines', config: { defaultLeaseTtl: 3600, maxLeaseTtl: 7200 } });
  });

  it('lists the mounts as a table', async () => {
    const list = await ts.cli(['auth', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['Path', 'Type', 'Accessor', 'Description']);
    const ci = lines.find((l) => l.startsWith('ci/'))!;
    expect(ci.split(/\s{2,}/)).toEqual(['ci/', 'cloud', ts.server.services.mounts.get('auth/ci/')!.accessor, 'CI machines']);
    expect(lines.some((l) => l.startsWith('token/'))).toBe(true);
  });

  it('adds columns with -detailed and prints the mounts keyed by path with -format=json', async () => {
    const detailed = await ts.cli(['auth', 'list', '-detailed']);
    expect(detailed.code).toBe(0);
    const [header, , ...rows] = detailed.stdout.trim().split('\n');
    expect(header).toContain('Default TTL');
    expect(header).toContain('UUID');
    const ci = rows.find((l) => l.startsWith('ci/'))!.split(/\s{2,}/);
    expect(ci.slice(0, 6)).toEqual(['ci/', 'cloud', expect.stringMatching(/^auth_cloud_/), '1h', '2h', 'default-service']);
    expect(rows.find((l) => l.startsWith('token/'))!.split(/\s{2,}/)[3]).toBe('system');

    const json = await ts.cli(['auth', 'list', '-format=json']);
    const mounts = JSON.parse(json.stdout) as Record<string, { type: string }>;
    expect(mounts['ci/'].type).toBe('cloud');
    expect(mounts['token/'].type).toBe('token');
  });

  it('reports a path in use as a server error', async () => {
    const again = await ts.cli(['auth', 'enable', 'cloud']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already in use');
  });

  it('disables a method', async () => {
    const disable = await ts.cli(['auth', 'disable', 'ci']);
    expect(disable).toMatchObject({ code: 0, stdout: 'Success! Disabled the auth method (if it existed) at: ci/\n' });
    expect(ts.server.services.mounts.get('auth/ci/')).toBeUndefined();
    const token = await ts.cli(['auth', 'disable', 'token']);
    expect(token.code).toBe(2);
  });

  it('is refused to a token without sudo on sys/auth/*', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/no-sudo', { body: { policy: 'path "sys/auth/*" {\n  capabilities = ["update"]\n}\n' } });
    const { secret } = await ts.server.services.tokens.create({
      policies: ['no-sudo'],
      path: 'auth/token/create',
      mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
      orphan: true,
    });
    const enable = await ts.cli(['auth', 'enable', '-path=denied', 'cloud'], { token: secret });
    expect(enable.code).toBe(2);
    expect(enable.stderr).toContain('permission denied');
    expect(ts.server.services.mounts.get('auth/denied/')).toBeUndefined();
  });
});
