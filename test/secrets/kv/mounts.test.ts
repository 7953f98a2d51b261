import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { apiError } from './kv-helpers.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

const c = () => ts.client();
const mounts = async () => (await c().secrets('GET', 'sys/mounts'))!.data as Record<string, Record<string, unknown>>;

describe('sys/mounts', () => {
  it('enables kv and kv-v2, listed with their type, options, description and config', async () => {
    await c().secrets('POST', 'sys/mounts/plain', { body: { type: 'kv', description: 'unversioned' } });
    await c().secrets('POST', 'sys/mounts/team/secrets', { body: { type: 'kv-v2', config: { default_lease_ttl: '1h', max_lease_ttl: 7200 } } });
    const all = await mounts();
    expect(all['plain/']).toMatchObject({ type: 'kv', description: 'unversioned', options: null, accessor: expect.stringMatching(/^kv_[0-9a-f]{8}$/) });
    expect(all['team/secrets/']).toMatchObject({ type: 'kv', options: { version: '2' }, config: { default_lease_ttl: 3600, max_lease_ttl: 7200, force_no_cache: false } });
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['sys/', 'identity/']));
    expect((await c().secrets('GET', 'sys/mounts/team/secrets'))!.data).toMatchObject({ type: 'kv', options: { version: '2' } });
    await c().secrets('POST', 'team/secrets/data/x', { body: { data: { a: 1 } } });
    expect((await c().secrets('GET', 'team/secrets/data/x'))!.data!.data).toEqual({ a: 1 });
  });

  it('refuses a path in use, nested, reserved, the scheduler\'s, or an unknown type, with Vault\'s messages', async () => {
    await c().secrets('POST', 'sys/mounts/taken', { body: { type: 'kv' } });
    expect((await apiError(c().secrets('POST', 'sys/mounts/taken', { body: { type: 'kv' } }))).errors).toEqual(['path is already in use at taken/']);
    expect((await apiError(c().secrets('POST', 'sys/mounts/taken/inner', { body: { type: 'kv' } }))).errors).toEqual(['path is already in use at taken/']);
    for (const reserved of ['sys', 'identity', 'auth/x', 'cubbyhole']) {
      const err = await apiError(c().secrets('POST', `sys/mounts/${reserved}`, { body: { type: 'kv' } }));
      expect(err.statusCode).toBe(400);
      expect(err.errors[0]).toMatch(/^cannot mount at ".*": .* is reserved$/);
    }
    expect((await apiError(c().secrets('POST', 'sys/mounts/jobs', { body: { type: 'kv' } }))).errors).toEqual(['cannot mount at "jobs/": /v1/jobs/ is the scheduler API\'s']);
    expect((await apiError(c().secrets('POST', 'sys/mounts/x', { body: { type: 'nope' } }))).errors).toEqual(['plugin not found in the catalog: nope']);
    expect((await apiError(c().secrets('POST', 'sys/mounts/y', { body: { type: 'kv', options: { version: '3' } } }))).errors).toEqual(['invalid kv version "3": use 1 or 2']);
  });

  it('disables an engine and all its data; a new mount at the path starts empty', async () => {
    await c().secrets('POST', 'sys/mounts/temp', { body: { type: 'kv-v2' } });
    await c().secrets('POST', 'temp/data/k', { body: { data: { s: 'x' } } });
    const uuid = ts.server.services.secretMounts.get('temp/')!.uuid;
    await c().secrets('DELETE', 'sys/mounts/temp');
    expect((await mounts())['temp/']).toBeUndefined();
    for (const table of ['kv_meta', 'kv_versions']) expect(ts.server.services.store.keys(table, `${uuid}/`)).toEqual([]);
    expect((await apiError(c().secrets('GET', 'temp/data/k'))).statusCode).toBe(404);
    await c().secrets('POST', 'sys/mounts/temp', { body: { type: 'kv-v2' } });
    expect((await apiError(c().secrets('GET', 'temp/data/k'))).statusCode).toBe(404);
    // A path with no engine is not an error (Vault); the built-in ones cannot go.
    expect(await c().secrets('DELETE', 'sys/mounts/never')).toBeUndefined();
    expect((await apiError(c().secrets('DELETE', 'sys/mounts/sys'))).errors).toEqual(['cannot unmount "sys/"']);
  });

  it('tunes TTLs and description, and reads them back as Vault\'s tune does', async () => {
    await c().secrets('POST', 'sys/mounts/tuned', { body: { type: 'kv' } });
    expect((await c().secrets('GET', 'sys/mounts/tuned/tune'))!.data).toEqual({ default_lease_ttl: 2764800, description: '', force_no_cache: false, max_lease_ttl: 2764800, options: null });
    await c().secrets('POST', 'sys/mounts/tuned/tune', { body: { default_lease_ttl: '30m', max_lease_ttl: '1h', description: 'tuned' } });
    expect((await c().secrets('GET', 'sys/mounts/tuned/tune'))!.data).toMatchObject({ default_lease_ttl: 1800, max_lease_ttl: 3600, description: 'tuned' });
    expect((await apiError(c().secrets('POST', 'sys/mounts/tuned/tune', { body: { default_lease_ttl: '2h' } }))).errors).toEqual([
      'backend max lease TTL of 3600 would be less than backend default lease TTL of 7200',
    ]);
    expect((await apiError(c().secrets('GET', 'sys/mounts/none/tune'))).errors).toEqual(['cannot fetch mount entry on "none/"']);
  });

  it('upgrades a v1 mount to v2 by tune options {version: 2}: each secret becomes version 1; no way back', async () => {
    await c().secrets('POST', 'sys/mounts/old', { body: { type: 'kv' } });
    await c().secrets('POST', 'old/app/db', { body: { password: 'before' } });
    const res = await c().secrets('POST', 'sys/mounts/old/tune', { body: { options: { version: '2' } } });
    expect(res!.warnings![0]).toMatch(/^Upgrading from non-versioned to versioned data/);
    const read = await c().secrets('GET', 'old/data/app/db');
    expect(read!.data).toMatchObject({ data: { password: 'before' }, metadata: { version: 1, destroyed: false } });
    expect((await c().secrets('LIST', 'old/metadata/app'))!.data!.keys).toEqual(['db']);
    expect((await apiError(c().secrets('POST', 'sys/mounts/old/tune', { body: { options: { version: '1' } } }))).errors).toEqual([
      'cannot downgrade a versioned kv mount (version 2) to version 1',
    ]);
  });

  it('moves an engine with its data in one write, answering a migration_id whose status is success', async () => {
    await c().secrets('POST', 'sys/mounts/from-here', { body: { type: 'kv-v2' } });
    await c().secrets('POST', 'from-here/data/k', { body: { data: { v: 'kept' } } });
    const res = await c().secrets('POST', 'sys/remount', { body: { from: 'from-here', to: 'to-there' } });
    const id = res!.data!.migration_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await c().secrets('GET', `sys/remount/status/${id}`))!.data).toEqual({
      migration_id: id,
      migration_info: { source_mount: 'from-here/', target_mount: 'to-there/', status: 'success', start_time: expect.any(String), end_time: expect.any(String) },
    });
    expect((await c().secrets('GET', 'to-there/data/k'))!.data!.data).toEqual({ v: 'kept' });
    expect((await mounts())['from-here/']).toBeUndefined();
    expect((await apiError(c().secrets('GET', 'from-here/data/k'))).statusCode).toBe(404);
    expect((await apiError(c().secrets('POST', 'sys/remount', { body: { from: 'absent', to: 'elsewhere' } }))).errors).toEqual(['no matching mount at "absent/"']);
    await c().secrets('POST', 'sys/mounts/occupied', { body: { type: 'kv' } });
    expect((await apiError(c().secrets('POST', 'sys/remount', { body: { from: 'to-there', to: 'occupied' } }))).errors).toEqual(['path is already in use at occupied/']);
    expect((await apiError(c().secrets('POST', 'sys/remount', { body: { from: 'sys', to: 'elsewhere' } }))).errors).toEqual(['cannot remount "sys/"']);
  });

  it('keeps Vault\'s mount settings and answers them as Vault: the flags always, each config key once set', async () => {
    const running = `v${ts.server.services.version}+builtin.svc`;
    await c().secrets('POST', 'sys/mounts/settings', {
      body: {
        type: 'kv',
        local: true,
        seal_wrap: true,
        external_entropy_access: true,
        plugin_version: running,
        config: {
          force_no_cache: true,
          audit_non_hmac_request_keys: ['user', ' role '],
          audit_non_hmac_response_keys: 'a, b,,c',
          listing_visibility: 'unauth',
          passthrough_request_headers: ['X-Team'],
          allowed_response_headers: 'X-Served-By',
          plugin_version: running.slice(1),
        },
      },
    });
    await c().secrets('POST', 'sys/mounts/defaults', { body: { type: 'kv' } });
    const all = await mounts();
    expect(all['settings/']).toMatchObject({ local: true, seal_wrap: true, external_entropy_access: true, plugin_version: '', running_plugin_version: running });
    expect(all['settings/'].config).toEqual({
      default_lease_ttl: 0,
      max_lease_ttl: 0,
      force_no_cache: true,
      audit_non_hmac_request_keys: ['user', 'role'],
      audit_non_hmac_response_keys: ['a', 'b', 'c'],
      listing_visibility: 'unauth',
      passthrough_request_headers: ['X-Team'],
      allowed_response_headers: ['X-Served-By'],
    });
    expect(all['defaults/']).toMatchObject({ local: false, seal_wrap: false, external_entropy_access: false });
    expect(all['defaults/'].config).toEqual({ default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false });
    expect((await c().secrets('GET', 'sys/mounts/settings'))!.data).toMatchObject({ config: { listing_visibility: 'unauth' }, local: true });
    // A tune keeps what it does not change.
    await c().secrets('POST', 'sys/mounts/settings/tune', { body: { description: 'tuned' } });
    expect((await mounts())['settings/'].config).toMatchObject({ listing_visibility: 'unauth', audit_non_hmac_request_keys: ['user', 'role'] });
  });

  it('lists an engine with listing_visibility "unauth" to a caller without a token, and only that one', async () => {
    await c().secrets('POST', 'sys/mounts/shown', { body: { type: 'kv', description: 'public', options: { version: '2' }, config: { listing_visibility: 'unauth' } } });
    await c().secrets('POST', 'sys/mounts/unlisted', { body: { type: 'kv', config: { listing_visibility: 'hidden' } } });
    const anonymous = await ts.request('GET', '/v1/sys/internal/ui/mounts', { token: '' });
    expect(anonymous.status).toBe(200);
    const secret = ((anonymous.body as { data: { secret: Record<string, unknown> } }).data).secret;
    expect(secret['shown/']).toEqual({ type: 'kv', description: 'public', options: { version: '2' } });
    expect(secret['unlisted/']).toBeUndefined();
    expect(secret['settings/']).toEqual(expect.objectContaining({ type: 'kv' }));
    expect(Object.keys(secret).every((p) => ['shown/', 'settings/'].includes(p))).toBe(true);
  });

  it('refuses mount settings of the wrong type or value with 400 naming the field', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const err = await apiError(c().secrets('POST', 'sys/mounts/bad', { body: { type: 'kv', ...body } }));
      expect(err.statusCode).toBe(400);
      return err.errors[0];
    };
    expect(await refused({ local: 'sometimes' })).toMatch(/local/);
    expect(await refused({ seal_wrap: [] })).toMatch(/seal_wrap/);
    expect(await refused({ config: { audit_non_hmac_request_keys: [1, 2] } })).toBe('field "config.audit_non_hmac_request_keys" must be a list of strings or one comma-separated string');
    expect(await refused({ config: { passthrough_request_headers: { a: 1 } } })).toMatch(/^field "config\.passthrough_request_headers"/);
    expect(await refused({ config: { listing_visibility: 'everyone' } })).toBe('invalid listing_visibility everyone: use "unauth", "hidden" or ""');
    expect(await refused({ config: { listing_visibility: true } })).toMatch(/^field "config\.listing_visibility" must be a string/);
    expect(await refused({ config: { force_no_cache: 'maybe' } })).toMatch(/config\.force_no_cache/);
    expect(await refused({ plugin_version: 'latest' })).toBe('version "latest" is not a valid semantic version (field "plugin_version")');
    expect(await refused({ config: { plugin_version: 'v9.9.9' } })).toMatch(/^secrets plugin "kv", version v9\.9\.9 not found: .*leave config\.plugin_version empty$/);
    expect((await mounts())['bad/']).toBeUndefined();
  });

  it('-dev mounts secret/ as kv version 2, as Vault\'s dev server does', async () => {
    const dev = await startInProcessServer({ dev: true });
    try {
      const secret = ((await dev.client().secrets('GET', 'sys/mounts'))!.data as Record<string, Record<string, unknown>>)['secret/'];
      expect(secret).toMatchObject({ type: 'kv', options: { version: '2' }, description: 'key/value secret storage' });
      await dev.client().secrets('POST', 'secret/data/db', { body: { data: { password: 'dev' } } });
      expect((await dev.client().secrets('GET', 'secret/data/db'))!.data!.data).toEqual({ password: 'dev' });
    } finally {
      await dev.close();
    }
  });
});
