/**
 * KV through the PostgreSQL store: what one server of a cluster writes, a second server sharing the
 * database (and the keyring) reads, versions, check-and-set and mounts included; the rows hold no value
 * in the clear.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type SvcServer } from '../../../src/server/app.js';
import type { RawRequest } from '../../../src/framework/http/types.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { createDatabase, startPostgres, type Postgres } from '../../support/postgres.js';
import { apiError } from './kv-helpers.js';

let postgres: Postgres;
let storageUrl: string;
let a: InProcessServer;
let b: SvcServer | undefined;

const SECRET = 'shared-through-postgres-only';

beforeAll(async () => {
  postgres = await startPostgres();
  storageUrl = await createDatabase(postgres.url, 'kv_engine');
  a = await startInProcessServer({ memoryStorage: false, storageUrl });
  b = await buildServer({ dev: false, dataDir: a.dataDir, storageUrl, client: false, memoryStorage: false, logWrite: () => undefined });
}, 120_000);

afterAll(async () => {
  await b?.close();
  await a?.close();
  await postgres?.stop();
});

/** A request answered by the second server, with the root token the first one made. */
async function onB(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const raw: RawRequest = {
    method,
    path: `/v1/${path}`,
    query: new URLSearchParams(),
    headers: { 'x-svc-token': a.rootToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    remoteAddress: '127.0.0.1',
  };
  const answer = await b!.handle(raw);
  const text = answer.body.toString();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

describe('KV on PostgreSQL', () => {
  it('shares mounts, versions and check-and-set between the servers of a cluster', async () => {
    await a.client().secrets('POST', 'sys/mounts/shared', { body: { type: 'kv-v2' } });
    await a.client().secrets('POST', 'shared/data/db', { body: { data: { password: SECRET } } });
    const written = a.server.services.store.index();
    await b!.services.store.waitForIndex(written - 1, 10_000);
    const read = await onB('GET', 'shared/data/db');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ data: { password: SECRET }, metadata: { version: 1 } });
    expect((await onB('POST', 'shared/data/db', { data: { password: 'two' }, options: { cas: 1 } })).body.data.version).toBe(2);
    await a.server.services.store.waitForIndex(b!.services.store.index() - 1, 10_000);
    const stale = await apiError(a.client().secrets('POST', 'shared/data/db', { body: { data: { password: 'x' }, options: { cas: 1 } } }));
    expect(stale.errors).toEqual(['check-and-set parameter did not match the current version']);
  });

  it('keeps no value in the clear in the database', async () => {
    const client = new pg.Client({ connectionString: storageUrl });
    await client.connect();
    try {
      const tables = (await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.tablename);
      let all = '';
      for (const table of tables) all += (await client.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`)).rows.map((r) => r.row).join('\n');
      // The records are there, sealed; the value is not.
      expect(all).toContain('kv_versions');
      expect(all).toContain('sealed');
      expect(all).not.toContain(SECRET);
    } finally {
      await client.end();
    }
  });
});
