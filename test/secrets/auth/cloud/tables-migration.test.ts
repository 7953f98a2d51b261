/**
 * Schema 7 moves a data dir written with every cloud record in one table to a table per kind: after the
 * upgrade the server finds the configuration, the certificates, the roles and the access list where it
 * looks, the sealed values still open, and an instance logs in again with the nonce of its first login.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/api/http/client.js';
import { CERTIFICATE_TABLE, CLOUD_TABLES, CONFIG_TABLE, LISTS_TABLE, ROLE_TABLE } from '../../../../src/secrets/auth/cloud/mount-storage.js';
import { openLmdbStore } from '../../../../src/storage/lmdb-store.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../../src/storage/migrations.js';
import { ALLOC_MEMORY_TABLES } from '../../../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../../../src/server/migrations.js';
import { makeTempDir, startTestServer, type TestServer } from '../../../support/server.js';
import { startLoginWorld, type LoginWorld } from './login/login-support.js';

const VERSION = SCHEMA_MIGRATIONS.find((m) => m.description === 'cloud auth records in a table per kind')!.version;
const NEWEST = Math.max(...SCHEMA_MIGRATIONS.map((m) => m.version));

let dataDir: string;
let w: LoginWorld | undefined;
let restarted: TestServer | undefined;
afterAll(async () => {
  await restarted?.close();
  await w?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Every cloud record back in the one table it had before schema 7, and the schema version before it. */
async function toPreviousLayout(dir: string): Promise<void> {
  const store = await openLmdbStore({ dir: path.join(dir, 'state'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  await store.write((tx) => {
    for (const table of CLOUD_TABLES.filter((t) => t !== LISTS_TABLE)) {
      for (const { key, value } of tx.list(table)) {
        tx.put(LISTS_TABLE, key, value);
        tx.delete(table, key);
      }
    }
    tx.put(SCHEMA_TABLE, SCHEMA_KEY, VERSION - 1);
  });
  await store.close();
}

describe('schema 7: cloud records split by kind', () => {
  it('moves each record to its table, and logins go on as before', async () => {
    dataDir = await makeTempDir();
    w = await startLoginWorld({ server: { dataDir } });
    const instanceId = w.sim.addInstance().instanceId;
    const { rsa2048 } = await w.documents(instanceId);
    await w.writeRole('web', { auth_type: 'ec2', bound_account_id: w.sim.account });
    const nonce = (await w.login({ role: 'web', pkcs7: rsa2048 })).auth.metadata!.nonce;
    expect(nonce).toBeTruthy();
    const rootToken = w.srv.rootToken;
    const accessor = w.srv.server.services.mounts.get('auth/cloud/')!.accessor;
    await w.srv.close();

    await toPreviousLayout(dataDir);
    restarted = await startTestServer({ client: false, dataDir });
    const store = restarted.server.services.store;
    expect(store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(NEWEST);
    const keysOf = (table: string) => store.keys(table, `${accessor}/`).map((k) => k.slice(accessor.length + 1));
    expect(keysOf(CONFIG_TABLE)).toEqual(['config/client']);
    expect(keysOf(CERTIFICATE_TABLE)).toEqual(['config/certificate/sim-identity', 'config/certificate/sim-pkcs7', 'config/certificate/sim-rsa2048']);
    expect(keysOf(ROLE_TABLE)).toEqual(['role/web']);
    expect(keysOf(LISTS_TABLE)).toEqual([`identity-accesslist/${instanceId}`]);

    const root = restarted.client(rootToken);
    expect((await root.secrets('GET', 'auth/cloud/config/client'))!.data!.access_key).toBe(w.sim.rootCredentials.accessKeyId);
    const anonymous = new ApiClient({ address: restarted.url });
    // The access list kept the nonce (sealed), the role its settings, the configuration its sealed secret key.
    const again = await anonymous.secrets('POST', 'auth/cloud/login', { body: { role: 'web', pkcs7: rsa2048, nonce } });
    expect(again!.auth!.metadata).toMatchObject({ auth_type: 'ec2', role: 'web' });
    expect(w.sim.requests.at(-1)?.accessKeyId).toBe(w.sim.rootCredentials.accessKeyId);
  });
});
