/**
 * The generic secrets commands (read, write, list, delete) and the namespace commands, run as the built
 * bin/svc against a real server; plus the k=v parser they share, tested on its own.
 */
import { writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKvArgs, sanitizePath, toQuery, type KvSources } from '../../src/cli/kv-args.js';
import { UsageError } from '../../src/shared/errors.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';

function sources(files: Record<string, string> = {}, stdin?: string): KvSources & { stdinReads: number } {
  const s = {
    stdinReads: 0,
    readFile: async (p: string) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`);
      return files[p];
    },
    readStdin: async () => {
      s.stdinReads++;
      if (stdin === undefined) throw new Error('no stdin in this test');
      return stdin;
    },
  };
  return s;
}

describe('k=v arguments', () => {
  it('k=v pairs make an object, values kept as text', async () => {
    expect(await parseKvArgs(['a=1', 'b=two words', 'c=', 'd=x=y'], sources())).toEqual({ a: '1', b: 'two words', c: '', d: 'x=y' });
  });

  it('a repeated key becomes a list in order', async () => {
    expect(await parseKvArgs(['p=a', 'x=1', 'p=b', 'p=c'], sources())).toEqual({ p: ['a', 'b', 'c'], x: '1' });
  });

  it('k=@file reads the value from the file; k=\\@ is a literal @', async () => {
    const s = sources({ 'policy.hcl': 'path "x" {}\n' });
    expect(await parseKvArgs(['policy=@policy.hcl', 'email=\\@me'], s)).toEqual({ policy: 'path "x" {}\n', email: '@me' });
  });

  it('a missing file is a usage error naming it', async () => {
    await expect(parseKvArgs(['policy=@nope.hcl'], sources())).rejects.toThrow(UsageError);
    await expect(parseKvArgs(['policy=@nope.hcl'], sources())).rejects.toThrow('"nope.hcl"');
    await expect(parseKvArgs(['policy=@'], sources())).rejects.toThrow('must be followed by a file name');
  });

  it('k=- reads the value from stdin, only once', async () => {
    const s = sources({}, 'from stdin\n');
    expect(await parseKvArgs(['secret=-', 'other=x'], s)).toEqual({ secret: 'from stdin\n', other: 'x' });
    await expect(parseKvArgs(['a=-', 'b=-'], sources({}, 'x'))).rejects.toThrow('stdin already consumed');
    await expect(parseKvArgs(['a=-', '-'], sources({}, '{}'))).rejects.toThrow('stdin already consumed');
  });

  it('a bare - reads a JSON object body from stdin; k=v given before it wins', async () => {
    const s = sources({}, '{"ttl": "1h", "policies": ["a", "b"], "num_uses": 3, "meta": {"k": "v"}}');
    expect(await parseKvArgs(['ttl=2h', '-'], s)).toEqual({ ttl: '2h', policies: ['a', 'b'], num_uses: 3, meta: { k: 'v' } });
    expect(s.stdinReads).toBe(1);
  });

  it('a bare @file reads a JSON object body from the file', async () => {
    expect(await parseKvArgs(['@body.json'], sources({ 'body.json': '{"a": true}' }))).toEqual({ a: true });
  });

  it('a JSON body that is not an object, or not JSON, is refused', async () => {
    await expect(parseKvArgs(['-'], sources({}, '[1, 2]'))).rejects.toThrow('must hold a JSON object');
    await expect(parseKvArgs(['-'], sources({}, '{nope'))).rejects.toThrow('does not hold valid JSON');
  });

  it('an argument without = is refused, an empty one ignored', async () => {
    await expect(parseKvArgs(['novalue'], sources())).rejects.toThrow('format must be key=value');
    await expect(parseKvArgs(['=value'], sources())).rejects.toThrow('missing key');
    expect(await parseKvArgs(['', 'a=b'], sources())).toEqual({ a: 'b' });
  });

  it('stdin is not read unless asked for', async () => {
    const s = sources({}, 'unused');
    await parseKvArgs(['a=b'], s);
    expect(s.stdinReads).toBe(0);
  });

  it('query parameters join lists with commas and encode objects as JSON', () => {
    expect(toQuery({ a: 'x', l: ['p', 'q'], n: 3, b: false, o: { k: 'v' }, skip: null })).toEqual({ a: 'x', l: 'p,q', n: '3', b: 'false', o: '{"k":"v"}' });
  });

  it('paths lose surrounding slashes and spaces', () => {
    expect(sanitizePath(' /sys/policies/acl/ ')).toBe('sys/policies/acl');
    expect(sanitizePath('auth/token/create')).toBe('auth/token/create');
  });
});

describe('svc read, write, list, delete against a real server', () => {
  let ts: TestServer;
  let dir: string;
  const policyText = 'path "secret/app/*" {\n  capabilities = ["read", "list"]\n}\n';

  beforeAll(async () => {
    ts = await startTestServer();
    dir = await makeTempDir('svc-generic-');
    await writeFile(path.join(dir, 'app.hcl'), policyText);
  });
  afterAll(async () => {
    await ts?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('write with @file prints the success message, and read shows the data', async () => {
    const write = await ts.cli(['write', 'sys/policies/acl/app', `policy=@${path.join(dir, 'app.hcl')}`]);
    expect(write.stderr).toBe('');
    expect(write.code).toBe(0);
    expect(write.stdout).toBe('Success! Data written to: sys/policies/acl/app\n');

    const read = await ts.cli(['read', '/sys/policies/acl/app/']);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/^Key\s+Value\n---\s+-----\n/);
    expect(read.stdout).toMatch(/^name\s+app$/m);

    const field = await ts.cli(['read', '-field=policy', 'sys/policies/acl/app']);
    expect(field.code).toBe(0);
    expect(field.stdout).toBe(policyText);
  });

  it('read -format=json prints the whole envelope; flags may follow the path', async () => {
    const read = await ts.cli(['read', 'sys/policies/acl/app', '-format=json']);
    expect(read.code).toBe(0);
    const envelope = JSON.parse(read.stdout);
    expect(envelope.data).toMatchObject({ name: 'app', policy: policyText });
    expect(envelope.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const yaml = await ts.cli(['read', '-format=yaml', 'sys/policies/acl/app']);
    expect(yaml.stdout).toContain('name: app');
  });

  it('write takes a value from stdin with k=-', async () => {
    const write = await ts.cli(['write', 'sys/policies/acl/from-stdin', 'policy=-'], { input: policyText });
    expect(write.code).toBe(0);
    const read = await ts.cli(['read', '-field=policy', 'sys/policies/acl/from-stdin']);
    expect(read.stdout).toBe(policyText);
  });

  it('write takes the whole JSON body from stdin with a bare -', async () => {
    const write = await ts.cli(['write', 'sys/policies/acl/json-body', '-'], { input: JSON.stringify({ policy: policyText }) });
    expect(write.code).toBe(0);
    expect(write.stdout).toContain('Success! Data written to: sys/policies/acl/json-body');
    const read = await ts.cli(['read', '-field=policy', 'sys/policies/acl/json-body']);
    expect(read.stdout).toBe(policyText);
  });

  it('repeated keys are sent as a list, and a response with data is printed', async () => {
    await ts.cli(['write', 'sys/policies/acl/other', `policy=@${path.join(dir, 'app.hcl')}`]);
    const created = await ts.cli(['write', '-format=json', 'auth/token/create', 'policies=app', 'policies=other', 'ttl=1h']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const auth = JSON.parse(created.stdout).auth;
    expect(auth.token_policies).toEqual(expect.arrayContaining(['app', 'other']));
    expect(auth.lease_duration).toBe(3600);

    const token = await ts.cli(['write', '-field=token', 'auth/token/create', 'policies=app']);
    expect(token.code).toBe(0);
    const self = await ts.client(token.stdout.trim()).secrets('GET', 'auth/token/lookup-self');
    expect(self?.data?.policies).toEqual(expect.arrayContaining(['app']));
  });

  it('write with nothing to send needs -force', async () => {
    const refused = await ts.cli(['write', 'auth/token/create']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Must supply data or use -force');
    const forced = await ts.cli(['write', '-f', '-field=token', 'auth/token/create']);
    expect(forced.code).toBe(0);
    expect(forced.stdout.trim()).not.toBe('');
  });

  it('a warning from the server goes to stderr, the data to stdout', async () => {
    const result = await ts.cli(['write', '-field=token', 'auth/token/create', 'policies=app', 'bogus=1']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('bogus');
    const table = await ts.cli(['write', 'auth/token/create', 'policies=app', 'bogus=1']);
    expect(table.stderr).toContain('Endpoint ignored these unrecognized parameters: [bogus]');
    expect(table.stdout).toMatch(/^token\s+\S+$/m);
  });

  it('read passes k=v as query parameters', async () => {
    const result = await ts.cli(['read', '-format=json', 'sys/policies/acl/app', 'unexpected=1']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [unexpected]']);
  });

  it('list uses LIST and prints the keys', async () => {
    const list = await ts.cli(['list', 'sys/policies/acl']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['Keys', '----']);
    expect(lines.slice(2)).toEqual(expect.arrayContaining(['app', 'default', 'from-stdin', 'json-body']));
    const json = await ts.cli(['list', '-format=json', 'sys/policies/acl/']);
    expect(JSON.parse(json.stdout)).toEqual(lines.slice(2));
  });

  it('list of a path with nothing under it says so and exits 2', async () => {
    const result = await ts.cli(['list', 'auth/token/roles']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('No value found at auth/token/roles/\n');
    expect(result.stdout).toBe('');
  });

  it('delete prints its message, and the data is gone', async () => {
    const del = await ts.cli(['delete', 'sys/policies/acl/from-stdin']);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe('Success! Data deleted (if it existed) at: sys/policies/acl/from-stdin\n');
    const read = await ts.cli(['read', 'sys/policies/acl/from-stdin']);
    expect(read.code).toBe(2);
    expect(read.stderr).toBe('No value found at sys/policies/acl/from-stdin\n');
    expect(read.stdout).toBe('');
  });

  it('json output stays empty for a write or delete with no answer, so scripts can parse stdout', async () => {
    const write = await ts.cli(['write', '-format=json', 'sys/policies/acl/quiet', `policy=@${path.join(dir, 'app.hcl')}`]);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe('');
    const del = await ts.cli(['delete', '-format=json', 'sys/policies/acl/quiet']);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe('');
  });

  it('server errors exit 2 with the server message; usage errors exit 1', async () => {
    const bad = await ts.cli(['write', 'sys/policies/acl/broken', 'policy=path "x" { capabilities = ']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Code: 400');

    const denied = await ts.cli(['read', 'sys/policies/acl/app'], { token: 'not-a-token' });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('permission denied');

    const noPath = await ts.cli(['read']);
    expect(noPath.code).toBe(1);
    const badPair = await ts.cli(['write', 'sys/policies/acl/x', 'novalue']);
    expect(badPair.code).toBe(1);
    expect(badPair.stderr).toContain('format must be key=value');
    const missingFile = await ts.cli(['write', 'sys/policies/acl/x', `policy=@${path.join(dir, 'absent.hcl')}`]);
    expect(missingFile.code).toBe(1);
    expect(missingFile.stderr).toContain('absent.hcl');
  });

  it('an unreachable server is a server error (exit 2) naming the address', async () => {
    const result = await ts.cli(['read', 'sys/policies/acl/app'], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('http://127.0.0.1:1');
  });
});

describe('svc namespace against a real server', () => {
  let ts: TestServer;

  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => {
    await ts?.close();
  });

  it('apply creates, list shows, apply updates keeping what was not given, delete removes', async () => {
    const apply = await ts.cli(['namespace', 'apply', '-description=Web services', 'web']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toBe('Successfully applied namespace "web"!\n');
    await ts.client().scheduler('POST', '/v1/namespace/web', { body: { Name: 'web', Description: 'Web services', Meta: { team: 'a' } } });

    const list = await ts.cli(['namespace', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Name\s+Description$/);
    expect(lines).toContainEqual(expect.stringMatching(/^default\s+Default shared namespace$/));
    expect(lines).toContainEqual(expect.stringMatching(/^web\s+Web services$/));

    const bare = await ts.cli(['namespace', 'apply', 'web']);
    expect(bare.code).toBe(0);
    const kept = await ts.client().scheduler<{ Description: string; Meta: Record<string, string> }>('GET', '/v1/namespace/web');
    expect(kept.body.Description).toBe('Web services');
    expect(kept.body.Meta).toEqual({ team: 'a' });

    const updated = await ts.cli(['namespace', 'apply', '-description', 'Front end', 'web']);
    expect(updated.code).toBe(0);
    expect((await ts.client().scheduler<{ Description: string }>('GET', '/v1/namespace/web')).body.Description).toBe('Front end');

    const json = await ts.cli(['namespace', 'list', '-json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as Array<{ Name: string; Description: string }>;
    expect(parsed.map((n) => n.Name)).toEqual(['default', 'web']);
    expect(parsed[1].Description).toBe('Front end');

    const del = await ts.cli(['namespace', 'delete', 'web']);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe('Successfully deleted namespace "web"!\n');
    const after = await ts.cli(['namespace', 'list', '-json']);
    expect((JSON.parse(after.stdout) as Array<{ Name: string }>).map((n) => n.Name)).toEqual(['default']);
  });

  it('an empty description shows as <none>, for awk', async () => {
    await ts.cli(['namespace', 'apply', 'bare']);
    const list = await ts.cli(['namespace', 'list']);
    expect(list.stdout).toMatch(/^bare\s+<none>$/m);
    await ts.cli(['namespace', 'delete', 'bare']);
  });

  it('errors exit 1 with the server message, as Nomad', async () => {
    const missing = await ts.cli(['namespace', 'delete', 'does-not-exist']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
    const protectedNs = await ts.cli(['namespace', 'delete', 'default']);
    expect(protectedNs.code).toBe(1);
    expect(protectedNs.stderr).toContain('default namespace can not be deleted');
    const badName = await ts.cli(['namespace', 'apply', 'not_valid!']);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('invalid namespace name');
    const denied = await ts.cli(['namespace', 'apply', 'x'], { token: 'not-a-token' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('403');
    const usage = await ts.cli(['namespace', 'delete']);
    expect(usage.code).toBe(1);
  });
});
