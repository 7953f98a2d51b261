/**
 * KV version 2 as node-vault (the npm library, unmodified) drives it over real HTTP: the -dev mount at
 * secret/, a new mount through sys/mounts, writes with cas, a PATCH (node-vault's update), reads of
 * versions, metadata, LIST with Vault's LIST verb and with ?list=1, soft delete, undelete, destroy, a move, and
 * the preflight read Vault's kv commands find a mount with.
 */
import nodeVault from 'node-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ dev: true, client: false });
});

afterAll(async () => {
  await srv?.close();
});

const vault = (opts: { noCustomHTTPVerbs?: boolean } = {}) => nodeVault({ apiVersion: 'v1', endpoint: srv.url, token: srv.rootToken, ...opts });

/** What node-vault reports for a failed call: the status, and the body Vault answered. */
async function failure(call: Promise<unknown>): Promise<{ status: number; body: any }> {
  const err = (await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  )) as { response?: { statusCode: number; body: unknown } };
  if (!err.response) throw err;
  return { status: err.response.statusCode, body: err.response.body };
}

describe('node-vault and KV v2', () => {
  it('finds secret/ mounted as kv version 2 in sys/mounts', async () => {
    const mounts = await vault().mounts();
    expect(mounts['secret/']).toMatchObject({ type: 'kv', options: { version: '2' } });
    expect(mounts.data['secret/']).toMatchObject({ type: 'kv' });
  });

  it('writes, patches and reads versions, with check-and-set', async () => {
    const v = vault();
    expect((await v.write('secret/data/db', { data: { password: 'one' }, options: { cas: 0 } })).data.version).toBe(1);
    expect((await failure(v.write('secret/data/db', { data: { password: 'x' }, options: { cas: 0 } }))).body.errors).toEqual([
      'check-and-set parameter did not match the current version',
    ]);
    expect((await v.update('secret/data/db', { data: { user: 'app' } })).data.version).toBe(2);
    const latest = await v.read('secret/data/db');
    expect(latest.data).toMatchObject({ data: { password: 'one', user: 'app' }, metadata: { version: 2, destroyed: false, deletion_time: '' } });
    expect((await v.read('secret/data/db?version=1')).data.data).toEqual({ password: 'one' });
  });

  it('lists metadata with LIST and with ?list=1, and reads it', async () => {
    await vault().write('secret/data/apps/web', { data: { k: 'v' } });
    expect((await vault().list('secret/metadata/apps')).data.keys).toEqual(['web']);
    expect((await vault({ noCustomHTTPVerbs: true }).list('secret/metadata/apps')).data.keys).toEqual(['web']);
    expect((await vault().read('secret/metadata/apps/web')).data).toMatchObject({ current_version: 1, oldest_version: 0, max_versions: 0 });
  });

  it('soft-deletes (a 404 that still carries the metadata), undeletes and destroys', async () => {
    const v = vault();
    await v.write('secret/data/tmp', { data: { a: 1 } });
    await v.delete('secret/data/tmp');
    const deleted = await failure(v.read('secret/data/tmp'));
    expect(deleted.status).toBe(404);
    expect(deleted.body.data).toMatchObject({ data: null, metadata: { version: 1, destroyed: false } });
    await v.write('secret/undelete/tmp', { versions: [1] });
    expect((await v.read('secret/data/tmp')).data.data).toEqual({ a: 1 });
    await v.write('secret/destroy/tmp', { versions: [1] });
    expect((await failure(v.read('secret/data/tmp'))).body.data.metadata.destroyed).toBe(true);
    expect((await v.write('secret/data/tmp', { data: { a: 2 } })).data.version).toBe(2);
  });

  it('mounts, moves and unmounts an engine', async () => {
    const v = vault();
    await v.mount({ mount_point: 'team', type: 'kv', options: { version: '2' } });
    await v.write('team/data/x', { data: { y: 'z' } });
    const moved = await v.remount({ from: 'team', to: 'team-moved' });
    expect(moved.data.migration_id).toEqual(expect.any(String));
    expect((await v.read('team-moved/data/x')).data.data).toEqual({ y: 'z' });
    await v.unmount({ mount_point: 'team-moved' });
    expect((await failure(v.read('team-moved/data/x'))).status).toBe(404);
  });

  it("finds the mount and its version as Vault's kv commands do (sys/internal/ui/mounts), with only read on the data", async () => {
    const root = vault();
    await root.write('secret/data/app/x', { data: { pw: 'p1' } });
    await root.addPolicy({ name: 'app-read', rules: 'path "secret/data/app/*" { capabilities = ["read"] }' });
    const token = (await root.tokenCreate({ policies: ['app-read'] })).auth.client_token as string;
    const app = nodeVault({ apiVersion: 'v1', endpoint: srv.url, token });
    const mount = (await app.read('sys/internal/ui/mounts/secret/app/x')).data;
    expect(mount).toMatchObject({ path: 'secret/', type: 'kv', options: { version: '2' } });
    expect((await app.read(`${mount.path}data/app/x`)).data.data).toEqual({ pw: 'p1' });
    expect((await failure(app.read('sys/mounts'))).status).toBe(403);
    const elsewhere = await failure(app.read('sys/internal/ui/mounts/team/x'));
    expect(elsewhere).toEqual({ status: 403, body: { errors: ['preflight capability check returned 403, please ensure client\'s policies grant access to path "team/x/"'] } });
  });
});
