/**
 * Groups, their policies and entity merges through the PostgreSQL store: what one server writes, a
 * second server sharing the database answers the same, memberships and merged IDs included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type SvcServer } from '../../../src/server/app.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { createDatabase, startPostgres, type Postgres } from '../../support/postgres.js';
import { identityClient, type IdentityClient } from './support.js';

let postgres: Postgres;
let a: InProcessServer;
let b: SvcServer | undefined;
let c: IdentityClient;

beforeAll(async () => {
  postgres = await startPostgres();
  const storageUrl = await createDatabase(postgres.url, 'identity_groups');
  a = await startInProcessServer({ memoryStorage: false, storageUrl });
  c = identityClient(a);
  // The same keyring (data dir) and database: a second server of the same cluster.
  b = await buildServer({ dev: false, dataDir: a.dataDir, storageUrl, client: false, memoryStorage: false, logWrite: () => undefined });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await postgres?.stop();
});

describe('identity groups on PostgreSQL', () => {
  it('stores groups, nesting and merges so that another server reads them and grants the same policies', async () => {
    const to = (await c.ok('POST', 'identity/entity', { name: 'pg-to' }))!.id as string;
    const from = (await c.ok('POST', 'identity/entity', { name: 'pg-from' }))!.id as string;
    const inner = (await c.ok('POST', 'identity/group', { name: 'pg-inner', member_entity_ids: [from] }))!.id as string;
    const outer = (await c.ok('POST', 'identity/group', { name: 'pg-outer', policies: ['pg-policy'], member_group_ids: [inner] }))!.id as string;
    await c.ok('POST', 'identity/entity/merge', { to_entity_id: to, from_entity_ids: [from] });
    expect(a.server.services.identity.entityPolicies(from)).toEqual(['pg-policy']);

    const written = a.server.services.store.index();
    expect(await b!.services.store.waitForIndex(written - 1, 10_000)).toBeGreaterThanOrEqual(written);
    const other = b!.services.identity;
    expect(other.getGroupByName('pg-inner')).toMatchObject({ id: inner, memberEntityIds: [to], parentGroupIds: [outer] });
    expect(other.memberGroupIds(outer)).toEqual([inner]);
    expect(other.groupsOfEntity(to)).toEqual({ direct: [inner], inherited: [outer] });
    expect(other.entityPolicies(from)).toEqual(['pg-policy']);
    expect(other.getEntity(to)?.mergedEntityIds).toEqual([from]);
  });
});
