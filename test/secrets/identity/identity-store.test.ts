import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRfc3339Nano } from '../../../src/secrets/identity/identity-store.js';
import type { IdentityService } from '../../../src/secrets/identity/identity-service.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let ts: InProcessServer;
let c: ApiClient;
let store: IdentityService;
let accessor: string;

beforeAll(async () => {
  ts = await startInProcessServer();
  c = ts.client();
  store = ts.server.services.identity;
  accessor = (await ts.server.services.mounts.enable('store-cloud', 'cloud')).accessor;
});

afterAll(async () => {
  await ts?.close();
});

describe('formatRfc3339Nano', () => {
  it.each([
    ['1700000000123456789', '2023-11-14T22:13:20.123456789Z'],
    ['1700000000120000000', '2023-11-14T22:13:20.12Z'],
    ['1700000000000000000', '2023-11-14T22:13:20Z'],
    ['1700000000000000001', '2023-11-14T22:13:20.000000001Z'],
  ])('formats %s as Go RFC3339Nano %s', (ns, text) => {
    expect(formatRfc3339Nano(ns)).toBe(text);
  });
});

describe('upsertLoginAlias', () => {
  it('creates an entity named entity_<8 hex> and the alias on the first login, and reuses them after', async () => {
    const first = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-123', metadata: { role: 'dev' } });
    const entity = (await c.secrets('GET', `identity/entity/id/${first.entityId}`))!.data!;
    expect(entity.name).toMatch(/^entity_[0-9a-f]{8}$/);
    const alias = (await c.secrets('GET', `identity/entity-alias/id/${first.aliasId}`))!.data!;
    expect(alias).toMatchObject({ name: 'role-123', canonical_id: first.entityId, mount_accessor: accessor, metadata: { role: 'dev' } });

    const second = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-123', metadata: { role: 'dev' } });
    expect(second).toEqual(first);
    expect((await c.secrets('GET', `identity/entity-alias/id/${first.aliasId}`))!.data).toEqual(alias);
  });

  it('refreshes the alias metadata when a login reports different metadata', async () => {
    const first = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-meta', metadata: { v: '1' } });
    const before = (await c.secrets('GET', `identity/entity-alias/id/${first.aliasId}`))!.data!;
    const again = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-meta', metadata: { v: '2' } });
    expect(again).toEqual(first);
    const after = (await c.secrets('GET', `identity/entity-alias/id/${first.aliasId}`))!.data!;
    expect(after.metadata).toEqual({ v: '2' });
    expect(after.last_update_time).not.toBe(before.last_update_time);
  });

  it('gives another name on the same mount another entity', async () => {
    const a = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-a' });
    const b = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-b' });
    expect(b.entityId).not.toBe(a.entityId);
  });

  it('reuses an alias made through the API, with its entity', async () => {
    const entity = await c.secrets('POST', 'identity/entity', { body: { name: 'store-api-made' } });
    const alias = await c.secrets('POST', 'identity/entity-alias', {
      body: { name: 'role-api', canonical_id: entity!.data!.id, mount_accessor: accessor },
    });
    const login = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-api' });
    expect(login).toEqual({ entityId: entity!.data!.id, aliasId: alias!.data!.id });
  });

  it('creates one entity when first logins race', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-race' })));
    expect(new Set(results.map((r) => r.entityId)).size).toBe(1);
    expect(new Set(results.map((r) => r.aliasId)).size).toBe(1);
  });
});

describe('IdentityService', () => {
  it('reports existence, policies and disabled state of an entity', async () => {
    const { entityId } = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'role-policies' });
    expect(store.entityExists(entityId)).toBe(true);
    expect(store.entityPolicies(entityId)).toEqual([]);
    await c.secrets('POST', `identity/entity/id/${entityId}`, { body: { policies: ['p1', 'p2', 'p1'] } });
    expect(store.entityPolicies(entityId)).toEqual(['p1', 'p2']);
    expect(store.entityDisabled(entityId)).toBe(false);
    await c.secrets('POST', `identity/entity/id/${entityId}`, { body: { disabled: true } });
    expect(store.entityDisabled(entityId)).toBe(true);
    // a disabled entity grants nothing
    expect(store.entityPolicies(entityId)).toEqual([]);
  });

  it('knows nothing of a missing entity', () => {
    expect(store.entityExists('no-such-entity')).toBe(false);
    expect(store.entityPolicies('no-such-entity')).toEqual([]);
    expect(store.entityDisabled('no-such-entity')).toBe(false);
  });

  it('removes the aliases of one mount and answers how many', async () => {
    const other = (await ts.server.services.mounts.enable('store-other', 'cloud')).accessor;
    const a = await store.upsertLoginAlias({ mountAccessor: other, name: 'x1' });
    await store.upsertLoginAlias({ mountAccessor: other, name: 'x2' });
    const kept = await store.upsertLoginAlias({ mountAccessor: accessor, name: 'kept' });
    expect(await store.removeAliasesOfMount(other)).toBe(2);
    expect(store.getAlias(a.aliasId)).toBeUndefined();
    expect(store.getAliasByFactors(other, 'x1')).toBeUndefined();
    expect(store.aliasesOf(a.entityId)).toEqual([]);
    expect(store.getAlias(kept.aliasId)).toBeDefined();
    // the pair is free: a new login makes a new alias
    const again = await store.upsertLoginAlias({ mountAccessor: other, name: 'x1' });
    expect(again.aliasId).not.toBe(a.aliasId);
  });

  it('drops the aliases of a mount disabled through the mount table', async () => {
    const mount = await ts.server.services.mounts.enable('store-disabled', 'cloud');
    const login = await store.upsertLoginAlias({ mountAccessor: mount.accessor, name: 'gone' });
    await ts.server.services.mounts.disable('store-disabled');
    expect(store.getAlias(login.aliasId)).toBeUndefined();
    expect(store.entityExists(login.entityId)).toBe(true);
  });
});
