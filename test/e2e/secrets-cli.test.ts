/**
 * `svc secrets`, run as the built bin/svc against a real server: enabling, listing, tuning, moving and
 * disabling secrets engines, with Vault's messages, table and exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});

afterAll(async () => {
  await ts?.close();
});

/** The rows of `svc secrets list`, keyed by path, cells split on the table's gaps. */
async function listed(...flags: string[]): Promise<Record<string, string[]>> {
  const list = await ts.cli(['secrets', 'list', ...flags]);
  expect(list.code).toBe(0);
  const lines = list.stdout.trimEnd().split('\n');
  return Object.fromEntries(lines.slice(2).map((l) => l.split(/ {4,}/)).map((cells) => [cells[0], cells]));
}

describe('svc secrets', () => {
  it('enable mounts a kv engine, version 2 with -version=2, and list shows it in Vault\'s table', async () => {
    const enable = await ts.cli(['secrets', 'enable', '-path=apps', '-version=2', '-description=app secrets', 'kv']);
    expect(enable).toMatchObject({ code: 0, stdout: 'Success! Enabled the kv secrets engine at: apps/\n' });
    const list = await ts.cli(['secrets', 'list']);
    expect(list.stdout.split('\n').slice(0, 2)).toEqual([expect.stringMatching(/^Path {4,}Type {4,}Accessor {4,}Description$/), expect.stringMatching(/^----( +)----( +)--------( +)-----------$/)]);
    const rows = await listed();
    expect(rows['apps/']).toEqual(['apps/', 'kv', expect.stringMatching(/^kv_[0-9a-f]+$/), 'app secrets']);
    expect(rows['sys/'][1]).toBe('system');
    expect(rows['identity/'][1]).toBe('identity');
    const detailed = await ts.cli(['secrets', 'list', '-detailed']);
    expect(detailed.stdout).toMatch(/^Path +Plugin +Accessor +Default TTL +Max TTL +Force No Cache +Replication +Seal Wrap +External Entropy Access +Options +Description +UUID +Running Version$/m);
    expect((await listed('-detailed'))['apps/']).toEqual(expect.arrayContaining(['system', 'replicated', 'map[version:2]', 'app secrets']));
    const json = JSON.parse((await ts.cli(['secrets', 'list', '-format=json'])).stdout);
    expect(json['apps/']).toMatchObject({ type: 'kv', description: 'app secrets', options: { version: '2' } });
    expect((await ts.cli(['kv', 'put', 'apps/db', 'password=pw'])).stdout).toContain('apps/data/db');
  });

  it('kv-v2 mounts at its own name; a path in use is exit 2', async () => {
    expect(await ts.cli(['secrets', 'enable', 'kv-v2'])).toMatchObject({ code: 0, stdout: 'Success! Enabled the kv-v2 secrets engine at: kv-v2/\n' });
    expect((await listed('-detailed'))['kv-v2/']).toContain('map[version:2]');
    const again = await ts.cli(['secrets', 'enable', 'kv-v2']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^Error enabling: Error making API request\.[\s\S]*path is already in use at kv-v2\//);
    const plain = await ts.cli(['secrets', 'enable', '-path=plain', '-options=foo=bar', 'kv']);
    expect(plain.code).toBe(0);
    expect(JSON.parse((await ts.cli(['secrets', 'list', '-format=json'])).stdout)['plain/'].options).toMatchObject({ foo: 'bar' });
    expect((await ts.cli(['kv', 'put', 'plain/x', 'a=1'])).stdout).toBe('Success! Data written to: plain/x\n');
  });

  it('enable sends Vault\'s settings, which sys/mounts answers and list -detailed shows as Vault prints them', async () => {
    const running = JSON.parse((await ts.cli(['secrets', 'list', '-format=json'])).stdout)['sys/'].running_plugin_version as string;
    const enable = await ts.cli([
      'secrets', 'enable', '-path=team', '-description=team secrets', '-local', '-seal-wrap', '-external-entropy-access', '-force-no-cache',
      `-plugin-version=${running}`, '-audit-non-hmac-request-keys=user', '-audit-non-hmac-request-keys=role', '-audit-non-hmac-response-keys=lease',
      '-listing-visibility=unauth', '-passthrough-request-headers=X-Team', '-allowed-response-headers=X-Served-By', '-options=version=2', 'kv',
    ]);
    expect(enable).toMatchObject({ code: 0, stdout: `Success! Enabled the kv secrets engine version ${running} at: team/\n` });
    expect((await ts.client().secrets('GET', 'sys/mounts'))?.data?.['team/']).toMatchObject({
      local: true,
      seal_wrap: true,
      external_entropy_access: true,
      options: { version: '2' },
      config: {
        force_no_cache: true,
        audit_non_hmac_request_keys: ['user', 'role'],
        audit_non_hmac_response_keys: ['lease'],
        listing_visibility: 'unauth',
        passthrough_request_headers: ['X-Team'],
        allowed_response_headers: ['X-Served-By'],
      },
    });
    await ts.cli(['secrets', 'enable', '-path=shared', '-description=shared secrets', 'kv']);
    const detailed = (await ts.cli(['secrets', 'list', '-detailed'])).stdout.split('\n');
    const header = detailed[0].split(/ {2,}/);
    const cell = (path: string, column: string) => detailed.find((l) => l.startsWith(`${path} `))!.split(/ {2,}/)[header.indexOf(column)];
    expect([cell('team/', 'Force No Cache'), cell('team/', 'Replication'), cell('team/', 'Seal Wrap'), cell('team/', 'External Entropy Access')]).toEqual(['true', 'local', 'true', 'true']);
    expect([cell('shared/', 'Force No Cache'), cell('shared/', 'Replication'), cell('shared/', 'Seal Wrap'), cell('shared/', 'External Entropy Access')]).toEqual(['false', 'replicated', 'false', 'false']);
  });

  it('enable refuses a setting the server cannot take, naming it, exit 2', async () => {
    const visibility = await ts.cli(['secrets', 'enable', '-path=odd', '-listing-visibility=everyone', 'kv']);
    expect(visibility).toMatchObject({ code: 2, stderr: expect.stringContaining('invalid listing_visibility everyone: use "unauth", "hidden" or ""') });
    const version = await ts.cli(['secrets', 'enable', '-path=odd', '-plugin-version=v0.0.1', 'kv']);
    expect(version).toMatchObject({ code: 2, stderr: expect.stringMatching(/secrets plugin "kv", version v0\.0\.1 not found/) });
    expect((await ts.client().secrets('GET', 'sys/mounts'))?.data?.['odd/']).toBeUndefined();
  });

  it('enable checks its arguments before asking the server', async () => {
    const bad = await ts.cli(['secrets', 'enable', '-options=novalue', 'kv']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid -options "novalue": give it as key=value');
    expect((await ts.cli(['secrets', 'enable'])).code).toBe(1);
  });

  it('tune changes the settings given and keeps the others', async () => {
    await ts.cli(['secrets', 'enable', '-path=tuned', '-description=before', 'kv']);
    const tune = await ts.cli(['secrets', 'tune', '-default-lease-ttl=1h', '-max-lease-ttl=24h', 'tuned']);
    expect(tune).toMatchObject({ code: 0, stdout: 'Success! Tuned the secrets engine at: tuned/\n' });
    const read = await ts.client().secrets('GET', 'sys/mounts/tuned/tune');
    expect(read?.data).toMatchObject({ default_lease_ttl: 3600, max_lease_ttl: 86400, description: 'before' });
    await ts.cli(['secrets', 'tune', '-description=after', 'tuned/']);
    expect((await listed())['tuned/'][3]).toBe('after');
    await ts.cli(['kv', 'put', 'tuned/k', 'a=1']);
    expect(await ts.cli(['secrets', 'tune', '-version=2', 'tuned'])).toMatchObject({ code: 0 });
    expect((await ts.cli(['kv', 'get', '-format=json', 'tuned/k'])).stdout).toContain('"version": 1');
    expect((await ts.cli(['secrets', 'tune', 'tuned'])).code).toBe(1);
    const none = await ts.cli(['secrets', 'tune', '-description=x', 'nowhere']);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error tuning secrets engine nowhere\/: Error making API request/) });
  });

  it('move takes the engine and its data to the new path, following the migration to its end', async () => {
    await ts.cli(['secrets', 'enable', '-path=old', '-version=2', 'kv']);
    await ts.cli(['kv', 'put', 'old/db', 'password=moved']);
    const move = await ts.cli(['secrets', 'move', 'old', 'new/']);
    expect(move.code).toBe(0);
    const [started, finished] = move.stdout.trimEnd().split('\n');
    const id = /with migration ID (\S+)$/.exec(started)?.[1];
    expect(started).toBe(`Started moving secrets engine old/ to new/, with migration ID ${id}`);
    expect(finished).toBe(`Success! Finished moving secrets engine old/ to new/, with migration ID ${id}`);
    const rows = await listed();
    expect(rows['new/']).toBeDefined();
    expect(rows['old/']).toBeUndefined();
    expect((await ts.cli(['kv', 'get', '-field=password', 'new/db'])).stdout).toBe('moved');
    const taken = await ts.cli(['secrets', 'move', 'new', 'apps']);
    expect(taken).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^Error moving secrets engine new\/ to apps\/: Error making API request/) });
  });

  it('disable removes the engine and its data; disabling nothing succeeds', async () => {
    await ts.cli(['secrets', 'enable', '-path=gone', 'kv']);
    await ts.cli(['kv', 'put', 'gone/x', 'a=1']);
    const disable = await ts.cli(['secrets', 'disable', 'gone/']);
    expect(disable).toMatchObject({ code: 0, stdout: 'Success! Disabled the secrets engine (if it existed) at: gone/\n' });
    expect((await listed())['gone/']).toBeUndefined();
    expect((await ts.cli(['kv', 'get', 'gone/x'])).stderr).toContain('No secrets engine is mounted at "gone/x/"');
    await ts.cli(['secrets', 'enable', '-path=gone', 'kv']);
    expect((await ts.cli(['kv', 'get', 'gone/x'])).code).toBe(2);
    expect((await ts.cli(['secrets', 'disable', 'never'])).code).toBe(0);
  });

  it('a token without the capability is refused with exit 2', async () => {
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } });
    const token = String(created?.auth?.client_token);
    const denied = await ts.cli(['secrets', 'enable', '-path=nope', 'kv'], { token });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('permission denied');
    expect(denied.stderr).toMatch(/^Error enabling: /);
    expect(await ts.cli(['secrets', 'list'], { token })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error listing secrets engines: [\s\S]*permission denied/) });
    expect(await ts.cli(['secrets', 'disable', 'apps'], { token })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error disabling secrets engine at apps\/: /) });
  });
});
