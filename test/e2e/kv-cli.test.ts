/**
 * `svc kv`, run as the built bin/svc against a real server: both path forms, version 1 and version 2
 * mounts, the input forms, -field/-format, and the errors a user acts on. Vault's output shapes: the
 * "Secret Path", "Metadata" and "Data" sections, "Success! ..." lines, exit 2 when there is no value.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let dir: string;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

/** The Key/Value rows of a table section, keyed. */
function rows(section: string): Record<string, string> {
  const lines = section.split('\n').filter((l) => l !== '');
  expect(lines[0]).toMatch(/^Key +Value$/);
  expect(lines[1]).toMatch(/^--- +-----$/);
  return Object.fromEntries(lines.slice(2).map((l) => [l.split(/ {2,}/)[0], l.split(/ {2,}/).slice(1).join('  ')]));
}

/** The sections of kv get/put output, split at the "== Title ==" headings. */
function sections(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of stdout.split(/^(=+ [A-Za-z0-9 ]+ =+)$/m).slice(1).reduce<string[][]>((acc, p, i) => (i % 2 === 0 ? [...acc, [p]] : (acc[acc.length - 1].push(p), acc)), [])) {
    out[part[0].replace(/^=+ | =+$/g, '')] = part[1].replace(/^\n/, '');
  }
  return out;
}

beforeAll(async () => {
  ts = await startTestServer();
  dir = await makeTempDir('svc-kv-cli-');
  await ts.client().secrets('POST', 'sys/mounts/secret', { body: { type: 'kv', options: { version: '2' } } });
  await ts.client().secrets('POST', 'sys/mounts/kv1', { body: { type: 'kv' } });
});

afterAll(async () => {
  await ts?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc kv on a version 2 mount', () => {
  it('put prints the secret path and the new version\'s metadata, as Vault', async () => {
    const put = await ts.cli(['kv', 'put', 'secret/app/db', 'password=s3cr3t', 'user=app']);
    expect(put.stderr).toBe('');
    expect(put.code).toBe(0);
    const lines = put.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual(['=== Secret Path ===', 'secret/data/app/db', '', '======= Metadata =======']);
    const meta = rows(sections(put.stdout).Metadata);
    expect(meta.created_time).toMatch(TIME);
    expect(meta).toMatchObject({ custom_metadata: '<nil>', deletion_time: 'n/a', destroyed: 'false', version: '1' });
  });

  it('get prints the path, the metadata and the data, for both path forms', async () => {
    const get = await ts.cli(['kv', 'get', 'secret/app/db']);
    expect(get.code).toBe(0);
    const s = sections(get.stdout);
    expect(Object.keys(s)).toEqual(['Secret Path', 'Metadata', 'Data']);
    expect(s['Secret Path']).toBe('secret/data/app/db\n\n');
    expect(get.stdout).toContain('\n====== Data ======\nKey         Value\n---         -----\npassword    s3cr3t\nuser        app\n');
    expect(rows(s.Metadata).version).toBe('1');
    const withMount = await ts.cli(['kv', 'get', '-mount=secret', 'app/db']);
    expect(withMount.code).toBe(0);
    expect(withMount.stdout).toBe(get.stdout);
  });

  it('-field prints one key raw, -format prints the whole response', async () => {
    const field = await ts.cli(['kv', 'get', '-field=password', 'secret/app/db']);
    expect(field).toMatchObject({ code: 0, stdout: 's3cr3t' });
    const json = await ts.cli(['kv', 'get', '-format=json', 'secret/app/db']);
    expect(JSON.parse(json.stdout).data).toMatchObject({ data: { password: 's3cr3t', user: 'app' }, metadata: { version: 1 } });
    const yaml = await ts.cli(['kv', 'get', '-format=yaml', 'secret/app/db']);
    expect(yaml.stdout).toMatch(/^ {4}password: s3cr3t$/m);
    const missing = await ts.cli(['kv', 'get', '-field=nope', 'secret/app/db']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Field "nope" not present in secret');
  });

  it('reads values from a file, from stdin, and a JSON object from stdin', async () => {
    const file = path.join(dir, 'cert.pem');
    await writeFile(file, '-----BEGIN CERT-----\nabc\n');
    expect((await ts.cli(['kv', 'put', 'secret/inputs', `cert=@${file}`, 'pin=-'], { input: '1234' })).code).toBe(0);
    expect(JSON.parse((await ts.cli(['kv', 'get', '-format=json', 'secret/inputs'])).stdout).data.data).toEqual({ cert: '-----BEGIN CERT-----\nabc\n', pin: '1234' });
    expect((await ts.cli(['kv', 'put', 'secret/inputs', '-'], { input: '{"a":"1","n":2}' })).code).toBe(0);
    expect(JSON.parse((await ts.cli(['kv', 'get', '-format=json', 'secret/inputs'])).stdout).data.data).toEqual({ a: '1', n: 2 });
    const none = await ts.cli(['kv', 'put', 'secret/inputs']);
    expect(none).toMatchObject({ code: 1, stderr: expect.stringContaining('Must supply data') });
  });

  it('-version reads an older version; -cas refuses a write on a changed version', async () => {
    await ts.cli(['kv', 'put', 'secret/cas', 'v=one']);
    await ts.cli(['kv', 'put', 'secret/cas', 'v=two']);
    expect((await ts.cli(['kv', 'get', '-version=1', '-field=v', 'secret/cas'])).stdout).toBe('one');
    expect((await ts.cli(['kv', 'get', '-field=v', 'secret/cas'])).stdout).toBe('two');
    const stale = await ts.cli(['kv', 'put', '-cas=1', 'secret/cas', 'v=three']);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toContain('Error writing data to secret/data/cas');
    expect(stale.stderr).toContain('check-and-set parameter did not match the current version');
    expect(stale.stderr).not.toContain('three');
    expect((await ts.cli(['kv', 'put', '-cas=2', 'secret/cas', 'v=three'])).code).toBe(0);
    expect((await ts.cli(['kv', 'put', '-cas=0', 'secret/cas', 'v=x'])).code).toBe(2);
    expect((await ts.cli(['kv', 'put', '-cas=0', 'secret/cas-new', 'v=x'])).code).toBe(0);
  });

  it('patch changes the keys given and keeps the others, by PATCH or by read-and-write', async () => {
    await ts.cli(['kv', 'put', 'secret/patched', 'a=1', 'b=2']);
    const patch = await ts.cli(['kv', 'patch', 'secret/patched', 'b=3', 'c=4']);
    expect(patch.code).toBe(0);
    expect(rows(sections(patch.stdout).Metadata).version).toBe('2');
    const rw = await ts.cli(['kv', 'patch', '-method=rw', 'secret/patched', 'a=9']);
    expect(rw.code).toBe(0);
    expect(JSON.parse((await ts.cli(['kv', 'get', '-format=json', 'secret/patched'])).stdout).data).toMatchObject({ data: { a: '9', b: '3', c: '4' }, metadata: { version: 3 } });
    const stale = await ts.cli(['kv', 'patch', '-cas=1', 'secret/patched', 'a=0']);
    expect(stale.code).toBe(2);
    const absent = await ts.cli(['kv', 'patch', 'secret/never-written', 'a=1']);
    expect(absent).toMatchObject({ code: 2, stderr: expect.stringContaining('No value found at secret/data/never-written') });
  });

  it('patch -remove-data removes the keys named from the new version, with or without k=v pairs', async () => {
    await ts.cli(['kv', 'put', 'secret/trimmed', 'a=1', 'b=2', 'c=3', 'd=4']);
    const removed = await ts.cli(['kv', 'patch', '-remove-data=a', '-remove-data=b', 'secret/trimmed']);
    expect(removed.code).toBe(0);
    expect(rows(sections(removed.stdout).Metadata).version).toBe('2');
    const both = await ts.cli(['kv', 'patch', '-remove-data=c', 'secret/trimmed', 'e=5']);
    expect(both.code).toBe(0);
    const read = JSON.parse((await ts.cli(['kv', 'get', '-format=json', 'secret/trimmed'])).stdout).data;
    expect(read).toMatchObject({ data: { d: '4', e: '5' }, metadata: { version: 3 } });
    expect(Object.keys(read.data).sort()).toEqual(['d', 'e']);
    const first = JSON.parse((await ts.cli(['kv', 'get', '-format=json', '-version=1', 'secret/trimmed'])).stdout).data;
    expect(first.data).toEqual({ a: '1', b: '2', c: '3', d: '4' });
    const rw = await ts.cli(['kv', 'patch', '-method=rw', '-remove-data=d', 'secret/trimmed']);
    expect(rw).toMatchObject({ code: 1, stderr: expect.stringContaining('-remove-data needs -method=patch') });
    expect(JSON.parse((await ts.cli(['kv', 'get', '-format=json', 'secret/trimmed'])).stdout).data.metadata.version).toBe(3);
  });

  it('delete, undelete and destroy, with Vault\'s messages', async () => {
    await ts.cli(['kv', 'put', 'secret/life', 'k=v1']);
    await ts.cli(['kv', 'put', 'secret/life', 'k=v2']);
    const del = await ts.cli(['kv', 'delete', 'secret/life']);
    expect(del).toMatchObject({ code: 0, stdout: 'Success! Data deleted (if it existed) at: secret/data/life\n' });
    const deleted = await ts.cli(['kv', 'get', 'secret/life']);
    expect(deleted.code).toBe(0);
    expect(Object.keys(sections(deleted.stdout))).toEqual(['Secret Path', 'Metadata']);
    expect(rows(sections(deleted.stdout).Metadata).deletion_time).toMatch(TIME);
    const noVersions = await ts.cli(['kv', 'undelete', 'secret/life']);
    expect(noVersions).toMatchObject({ code: 1, stderr: expect.stringContaining('No versions provided, use the "-versions" flag') });
    const undel = await ts.cli(['kv', 'undelete', '-versions=2', 'secret/life']);
    expect(undel).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/undelete/life\n' });
    expect((await ts.cli(['kv', 'get', '-field=k', 'secret/life'])).stdout).toBe('v2');
    const delOld = await ts.cli(['kv', 'delete', '-versions=1', 'secret/life']);
    expect(delOld.stdout).toBe('Success! Data deleted (if it existed) at: secret/delete/life\n');
    const destroy = await ts.cli(['kv', 'destroy', '-versions=1,2', '-mount=secret', 'life']);
    expect(destroy).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/destroy/life\n' });
    const gone = await ts.cli(['kv', 'get', '-format=json', 'secret/life']);
    expect(JSON.parse(gone.stdout).data).toMatchObject({ data: null, metadata: { destroyed: true, version: 2 } });
    const field = await ts.cli(['kv', 'get', '-field=k', 'secret/life']);
    expect(field).toMatchObject({ code: 2, stderr: expect.stringContaining('No data found at secret/data/life') });
  });

  it('list lists the keys; nothing there is exit 2', async () => {
    await ts.cli(['kv', 'put', 'secret/dir/a', 'x=1']);
    await ts.cli(['kv', 'put', 'secret/dir/sub/b', 'x=1']);
    const list = await ts.cli(['kv', 'list', 'secret/dir']);
    expect(list).toMatchObject({ code: 0, stdout: 'Keys\n----\na\nsub/\n' });
    expect(JSON.parse((await ts.cli(['kv', 'list', '-format=json', '-mount=secret', 'dir/'])).stdout)).toEqual(['a', 'sub/']);
    expect((await ts.cli(['kv', 'list', 'secret/'])).stdout).toMatch(/^dir\/$/m);
    expect((await ts.cli(['kv', 'list', '-mount=secret'])).stdout).toMatch(/^dir\/$/m);
    expect(await ts.cli(['kv', 'list'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Not enough arguments: give the path to list') });
    const empty = await ts.cli(['kv', 'list', 'secret/nothing']);
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringContaining('No value found at secret/metadata/nothing/') });
  });

  it('metadata put, get, patch and delete', async () => {
    await ts.cli(['kv', 'put', 'secret/meta', 'x=1']);
    await ts.cli(['kv', 'put', 'secret/meta', 'x=2']);
    const put = await ts.cli(['kv', 'metadata', 'put', '-max-versions=5', '-cas-required', '-delete-version-after=1h', '-custom-metadata=owner=ops', '-custom-metadata=env=prod', 'secret/meta']);
    expect(put).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/metadata/meta\n' });
    const get = await ts.cli(['kv', 'metadata', 'get', 'secret/meta']);
    expect(get.code).toBe(0);
    const s = sections(get.stdout);
    expect(Object.keys(s)).toEqual(['Metadata Path', 'Metadata', 'Version 1', 'Version 2']);
    expect(s['Metadata Path']).toBe('secret/metadata/meta\n\n');
    expect(rows(s.Metadata)).toMatchObject({ cas_required: 'true', current_version: '2', custom_metadata: 'map[env:prod owner:ops]', delete_version_after: '1h0m0s', max_versions: '5', oldest_version: '0' });
    expect(rows(s['Version 2'])).toMatchObject({ destroyed: 'false', deletion_time: 'n/a', created_time: expect.stringMatching(TIME) });
    const noCas = await ts.cli(['kv', 'put', 'secret/meta', 'x=3']);
    expect(noCas).toMatchObject({ code: 2, stderr: expect.stringContaining('check-and-set parameter required for this call') });
    const patch = await ts.cli(['kv', 'metadata', 'patch', '-cas-required=false', '-custom-metadata=owner=dev', 'secret/meta']);
    expect(patch).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/metadata/meta\n' });
    expect(JSON.parse((await ts.cli(['kv', 'metadata', 'get', '-format=json', 'secret/meta'])).stdout).data).toMatchObject({ cas_required: false, max_versions: 5, custom_metadata: { env: 'prod', owner: 'dev' } });
    const del = await ts.cli(['kv', 'metadata', 'delete', '-mount=secret', 'meta']);
    expect(del).toMatchObject({ code: 0, stdout: 'Success! Data deleted (if it existed) at: secret/metadata/meta\n' });
    const after = await ts.cli(['kv', 'metadata', 'get', 'secret/meta']);
    expect(after).toMatchObject({ code: 2, stderr: expect.stringContaining('No value found at secret/metadata/meta') });
    expect((await ts.cli(['kv', 'get', 'secret/meta'])).code).toBe(2);
  });
});

describe('svc kv on a version 1 mount', () => {
  it('put, get, list and delete the plain path', async () => {
    const put = await ts.cli(['kv', 'put', 'kv1/app', 'token=abc']);
    expect(put).toMatchObject({ code: 0, stdout: 'Success! Data written to: kv1/app\n' });
    const get = await ts.cli(['kv', 'get', 'kv1/app']);
    expect(get).toMatchObject({ code: 0, stdout: '==== Data ====\nKey      Value\n---      -----\ntoken    abc\n' });
    expect((await ts.cli(['kv', 'get', '-mount=kv1', '-field=token', 'app'])).stdout).toBe('abc');
    expect((await ts.cli(['kv', 'list', 'kv1'])).stdout).toBe('Keys\n----\napp\n');
    const del = await ts.cli(['kv', 'delete', 'kv1/app']);
    expect(del).toMatchObject({ code: 0, stdout: 'Success! Data deleted (if it existed) at: kv1/app\n' });
    const missing = await ts.cli(['kv', 'get', 'kv1/app']);
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('No value found at kv1/app') });
  });

  it('version 2 commands and flags say so', async () => {
    expect(await ts.cli(['kv', 'metadata', 'get', 'kv1/app'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Metadata not supported on KV Version 1') });
    expect(await ts.cli(['kv', 'undelete', '-versions=1', 'kv1/app'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Undelete not supported on KV Version 1') });
    expect(await ts.cli(['kv', 'destroy', '-versions=1', 'kv1/app'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Destroy not supported on KV Version 1') });
    expect(await ts.cli(['kv', 'patch', 'kv1/app', 'a=1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('K/V engine mount must be version 2 for patch support') });
    expect(await ts.cli(['kv', 'get', '-version=1', 'kv1/app'])).toMatchObject({ code: 1, stderr: expect.stringContaining('-version is for KV version 2 mounts; kv1/ is version 1') });
  });

  it('enable-versioning upgrades the mount: the data becomes version 1', async () => {
    await ts.client().secrets('POST', 'sys/mounts/upgrade', { body: { type: 'kv' } });
    await ts.cli(['kv', 'put', 'upgrade/k', 'a=b']);
    const up = await ts.cli(['kv', 'enable-versioning', 'upgrade']);
    expect(up).toMatchObject({ code: 0, stdout: 'Success! Tuned the secrets engine at: upgrade/\n' });
    const get = await ts.cli(['kv', 'get', 'upgrade/k']);
    expect(sections(get.stdout)['Secret Path']).toBe('upgrade/data/k\n\n');
    expect(rows(sections(get.stdout).Metadata).version).toBe('1');
    expect((await ts.cli(['kv', 'get', '-field=a', 'upgrade/k'])).stdout).toBe('b');
  });
});

describe('svc kv errors a user can act on', () => {
  it('no mount at the path, or -mount naming none', async () => {
    const none = await ts.cli(['kv', 'get', 'nope/foo']);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('No secrets engine is mounted at "nope/foo/" that this token can reach: "svc secrets list" shows the mounts') });
    const flag = await ts.cli(['kv', 'put', '-mount=nope', 'foo', 'a=1']);
    expect(flag).toMatchObject({ code: 2, stderr: expect.stringContaining('No secrets engine is mounted at "nope/"') });
    const notKv = await ts.cli(['kv', 'get', 'sys/policies']);
    expect(notKv).toMatchObject({ code: 2, stderr: expect.stringContaining('is of type "system", not a KV secrets engine') });
  });

  it('a version 1 command on a version 2 path names the kv command to use', async () => {
    const read = await ts.cli(['read', 'secret/app/db']);
    expect(read.code).toBe(2);
    expect(read.stderr).toContain("use 'svc kv get' for this operation");
  });

  it('a token with only read on secret/data/app/* finds the mount itself and reads; a mount it cannot reach is refused', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/kv-app', { body: { policy: 'path "secret/data/app/*" { capabilities = ["read"] }' } });
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['kv-app'] } });
    const token = String(created?.auth?.client_token);
    const got = await ts.cli(['kv', 'get', '-field=password', 'secret/app/db'], { token });
    expect(got).toMatchObject({ code: 0, stdout: 's3cr3t' });
    const unreachable = await ts.cli(['kv', 'get', 'kv1/app'], { token });
    expect(unreachable).toMatchObject({ code: 2, stderr: expect.stringContaining('No secrets engine is mounted at "kv1/app/" that this token can reach') });
  });
});

describe('-output-curl-string', () => {
  it('prints the command\'s own request, the mount found first', async () => {
    const put = await ts.cli(['kv', 'put', '-output-curl-string', 'secret/curl', 'a=1']);
    expect(put.code).toBe(0);
    expect(put.stdout).toMatch(/^curl -X PUT .*\/v1\/secret\/data\/curl/);
    expect(put.stdout).toContain('"data":{"a":"1"}');
    const v1 = await ts.cli(['kv', 'get', '-output-curl-string', '-mount=kv1', 'x']);
    expect(v1.stdout).toMatch(/^curl .*\/v1\/kv1\/x/);
    expect((await ts.cli(['kv', 'get', 'secret/curl'])).code).toBe(2);
  });
});

describe('completion of kv paths', () => {
  const complete = async (prefix: string) => {
    const res = await ts.cli(['__complete', 'secrets-path', prefix]);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    return res.stdout.trimEnd().split('\n');
  };

  it('offers the secrets of a version 2 mount after the mount and after its API prefixes', async () => {
    await ts.cli(['kv', 'put', 'secret/comp/one', 'a=1']);
    await ts.cli(['kv', 'put', 'secret/comp/deeper/two', 'a=1']);
    expect(await complete('secret/')).toEqual(expect.arrayContaining(['secret/comp/', 'secret/data/', 'secret/metadata/']));
    expect(await complete('secret/comp/')).toEqual(expect.arrayContaining(['secret/comp/one', 'secret/comp/deeper/']));
    expect(await complete('secret/data/comp/o')).toEqual(['secret/data/comp/one']);
    expect(await complete('secret/metadata/co')).toEqual(['secret/metadata/comp/']);
  });

  it('offers the secrets of a version 1 mount', async () => {
    await ts.cli(['kv', 'put', 'kv1/listed', 'a=1']);
    expect(await complete('kv1/li')).toEqual(['kv1/listed']);
  });

  it('offers a token the mounts it reaches, though it may not read sys/mounts', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/kv-comp', { body: { policy: 'path "secret/data/*" { capabilities = ["read"] }' } });
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['kv-comp'] } });
    const res = await ts.cli(['__complete', 'secrets-path', ''], { token: String(created?.auth?.client_token) });
    expect(res.code).toBe(0);
    const offered = res.stdout.trimEnd().split('\n');
    expect(offered).toContain('secret/');
    expect(offered).not.toContain('kv1/');
  });
});
