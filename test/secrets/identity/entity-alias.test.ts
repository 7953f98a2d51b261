import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let ts: InProcessServer;
let c: ApiClient;
let accA: string;
let accB: string;

const RFC3339_NANO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

async function enableMount(path: string): Promise<string> {
  await c.secrets('POST', `sys/auth/${path}`, { body: { type: 'cloud' } });
  const mounts = await c.secrets('GET', 'sys/auth');
  return (mounts!.data![`${path}/`] as { accessor: string }).accessor;
}

async function newEntity(name?: string): Promise<string> {
  const res = await c.secrets('POST', 'identity/entity', { body: name ? { name } : {} });
  return res!.data!.id as string;
}

async function createAlias(body: Record<string, unknown>): Promise<{ id: string; canonical_id: string }> {
  const res = await c.secrets('POST', 'identity/entity-alias', { body });
  return res!.data as { id: string; canonical_id: string };
}

async function readAlias(id: string): Promise<Record<string, unknown>> {
  const res = await c.secrets('GET', `identity/entity-alias/id/${id}`);
  return res!.data!;
}

beforeAll(async () => {
  ts = await startInProcessServer();
  c = ts.client();
  accA = await enableMount('alias-a');
  accB = await enableMount('alias-b');
});

afterAll(async () => {
  await ts?.close();
});

// Runs first in this file: no alias exists until the tests below make some.
describe('listing with no aliases', () => {
  it('answers 404 with an empty error list, as Vault does for an empty list', async () => {
    const err = await apiError(c.secrets('LIST', 'identity/entity-alias/id'));
    expect(err.statusCode).toBe(404);
    expect(err.errors).toEqual([]);
  });
});

describe('create', () => {
  it('answers 200 with exactly the alias id and the canonical id', async () => {
    const entity = await newEntity();
    const res = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'create-ok', canonical_id: entity, mount_accessor: accA } });
    expect(Object.keys(res!.data!).sort()).toEqual(['canonical_id', 'id']);
    expect(res!.data!.canonical_id).toBe(entity);
    expect(res!.data!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(['name', 'canonical_id', 'mount_accessor'])('refuses a create without %s, naming it', async (missing) => {
    const entity = await newEntity();
    const body: Record<string, unknown> = { name: `missing-${missing}`, canonical_id: entity, mount_accessor: accA };
    delete body[missing];
    const err = await apiError(c.secrets('POST', 'identity/entity-alias', { body }));
    expect(err.statusCode).toBe(400);
    expect(err.errors.join(' ')).toContain(`"${missing}"`);
  });

  it.each(['name', 'canonical_id', 'mount_accessor'])('refuses a create with an empty %s, naming it', async (empty) => {
    const entity = await newEntity();
    const body: Record<string, unknown> = { name: `empty-${empty}`, canonical_id: entity, mount_accessor: accA, [empty]: '' };
    const err = await apiError(c.secrets('POST', 'identity/entity-alias', { body }));
    expect(err.statusCode).toBe(400);
    expect(err.errors.join(' ')).toContain(`"${empty}"`);
  });

  it.each([
    ['name', { x: 1 }],
    ['canonical_id', ['a', 'b']],
    ['mount_accessor', { a: 'b' }],
    ['custom_metadata', 5],
    ['custom_metadata', 'not a json object'],
    ['custom_metadata', { nested: { deep: true } }],
  ])('refuses %s of the wrong type (%j), naming the field', async (field, value) => {
    const entity = await newEntity();
    const body: Record<string, unknown> = { name: `type-${field}`, canonical_id: entity, mount_accessor: accA, [field]: value };
    const err = await apiError(c.secrets('POST', 'identity/entity-alias', { body }));
    expect(err.statusCode).toBe(400);
    expect(err.errors.join(' ')).toContain(`"${field}"`);
  });

  it('refuses an unknown canonical_id, naming the field', async () => {
    const err = await apiError(createAlias({ name: 'no-entity', canonical_id: 'a0000000-0000-0000-0000-000000000000', mount_accessor: accA }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('canonical_id');
    expect(err.errors[0]).toContain('a0000000-0000-0000-0000-000000000000');
  });

  it('refuses an unknown mount accessor', async () => {
    const entity = await newEntity();
    const err = await apiError(createAlias({ name: 'no-mount', canonical_id: entity, mount_accessor: 'auth_cloud_00000000' }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['invalid mount accessor "auth_cloud_00000000"']);
  });

  it('refuses a second alias with the same mount accessor and name, naming the existing alias', async () => {
    const first = await createAlias({ name: 'taken', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(createAlias({ name: 'taken', canonical_id: await newEntity(), mount_accessor: accA }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain(first.id);
    expect(err.errors[0]).toContain(first.canonical_id);
    // the same name on another mount is a different identity
    await expect(createAlias({ name: 'taken', canonical_id: await newEntity(), mount_accessor: accB })).resolves.toBeDefined();
  });

  it('refuses a second alias of one entity on the same mount', async () => {
    const entity = await newEntity();
    await createAlias({ name: 'one-per-mount-1', canonical_id: entity, mount_accessor: accA });
    const err = await apiError(createAlias({ name: 'one-per-mount-2', canonical_id: entity, mount_accessor: accA }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['Alias already exists for requested entity and mount accessor']);
    // another mount is fine
    await expect(createAlias({ name: 'one-per-mount-2', canonical_id: entity, mount_accessor: accB })).resolves.toBeDefined();
  });

  it('keeps (mount accessor, name) unique when creates race', async () => {
    const entities = await Promise.all(Array.from({ length: 8 }, () => newEntity()));
    const results = await Promise.allSettled(entities.map((e) => createAlias({ name: 'race', canonical_id: e, mount_accessor: accA })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).statusCode).toBe(400);
  });

  it('with an id, updates that alias instead of creating one', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'before-id-update', canonical_id: entity, mount_accessor: accA });
    const res = await createAlias({ id: alias.id, name: 'after-id-update', canonical_id: entity, mount_accessor: accA, custom_metadata: { k: 'v' } });
    expect(res).toEqual({ id: alias.id, canonical_id: entity });
    const read = await readAlias(alias.id);
    expect(read.name).toBe('after-id-update');
    expect(read.custom_metadata).toEqual({ k: 'v' });
    const entityRead = await c.secrets('GET', `identity/entity/id/${entity}`);
    expect((entityRead!.data!.aliases as unknown[]).length).toBe(1);
  });

  it('with an unknown id, refuses', async () => {
    const err = await apiError(createAlias({ id: 'b0000000-0000-0000-0000-000000000000', name: 'x', canonical_id: await newEntity(), mount_accessor: accA }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['invalid alias ID provided']);
  });

  it('warns about parameters it does not know', async () => {
    const res = await c.secrets('POST', 'identity/entity-alias', {
      body: { name: 'warned', canonical_id: await newEntity(), mount_accessor: accA, colour: 'blue' },
    });
    expect(res!.warnings!.join(' ')).toContain('colour');
  });
});

describe('read', () => {
  it('answers every field of the alias', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'shape', canonical_id: entity, mount_accessor: accA, custom_metadata: { team: 'a' } });
    const data = await readAlias(alias.id);
    expect(Object.keys(data).sort()).toEqual(
      [
        'canonical_id',
        'creation_time',
        'custom_metadata',
        'id',
        'last_update_time',
        'local',
        'merged_from_canonical_ids',
        'metadata',
        'mount_accessor',
        'mount_path',
        'mount_type',
        'name',
        'namespace_id',
      ].sort(),
    );
    expect(data).toMatchObject({
      id: alias.id,
      canonical_id: entity,
      mount_accessor: accA,
      mount_path: 'auth/alias-a/',
      mount_type: 'cloud',
      name: 'shape',
      metadata: {},
      custom_metadata: { team: 'a' },
      merged_from_canonical_ids: null,
      namespace_id: 'root',
      local: false,
    });
    expect(data.creation_time).toMatch(RFC3339_NANO);
    expect(data.last_update_time).toBe(data.creation_time);
  });

  it('answers 404 for a missing alias', async () => {
    const err = await apiError(c.secrets('GET', 'identity/entity-alias/id/c0000000-0000-0000-0000-000000000000'));
    expect(err.statusCode).toBe(404);
  });
});

describe('update by id', () => {
  it('changes only the fields given and moves last_update_time forward', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'partial', canonical_id: entity, mount_accessor: accA, custom_metadata: { a: '1' } });
    const before = await readAlias(alias.id);
    const res = await c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { custom_metadata: { b: '2' } } });
    expect(res!.data).toEqual({ id: alias.id, canonical_id: entity });
    const after = await readAlias(alias.id);
    expect(after).toMatchObject({ name: 'partial', canonical_id: entity, mount_accessor: accA, custom_metadata: { b: '2' } });
    expect(after.creation_time).toBe(before.creation_time);
    expect(after.last_update_time).not.toBe(before.last_update_time);
    expect(Date.parse(after.last_update_time as string)).toBeGreaterThanOrEqual(Date.parse(before.last_update_time as string));
  });

  it('empty name, canonical_id and mount_accessor keep the current values', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'kept-by-empty', canonical_id: entity, mount_accessor: accA });
    const before = await readAlias(alias.id);
    const res = await c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { name: '', canonical_id: '', mount_accessor: '' } });
    expect(res).toBeUndefined();
    expect(await readAlias(alias.id)).toEqual(before);
  });

  it('answers 204 and changes nothing when the values are the same', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'noop', canonical_id: entity, mount_accessor: accA });
    const before = await readAlias(alias.id);
    const res = await c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { name: 'noop', canonical_id: entity } });
    expect(res).toBeUndefined();
    expect(await readAlias(alias.id)).toEqual(before);
  });

  it('moves the alias to another entity and mount, and renames it', async () => {
    const e1 = await newEntity();
    const e2 = await newEntity();
    const alias = await createAlias({ name: 'mover', canonical_id: e1, mount_accessor: accA });
    await c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { canonical_id: e2, mount_accessor: accB, name: 'moved' } });
    expect(await readAlias(alias.id)).toMatchObject({ canonical_id: e2, mount_accessor: accB, name: 'moved', mount_path: 'auth/alias-b/' });
    const old = await c.secrets('GET', `identity/entity/id/${e1}`);
    expect(old!.data!.aliases).toEqual([]);
    // the old (mount, name) pair is free again
    await expect(createAlias({ name: 'mover', canonical_id: e1, mount_accessor: accA })).resolves.toBeDefined();
  });

  it('refuses an unknown id', async () => {
    const err = await apiError(c.secrets('POST', 'identity/entity-alias/id/d0000000-0000-0000-0000-000000000000', { body: { name: 'x' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['invalid alias ID provided']);
  });

  it('refuses an unknown canonical_id', async () => {
    const alias = await createAlias({ name: 'u-canon', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { canonical_id: 'e0000000-0000-0000-0000-000000000000' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('canonical_id');
  });

  it('refuses an unknown mount accessor', async () => {
    const alias = await createAlias({ name: 'u-mount', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { mount_accessor: 'auth_cloud_ffffffff' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['invalid mount accessor "auth_cloud_ffffffff"']);
  });

  it('refuses to take the mount accessor and name of another alias, naming it', async () => {
    const other = await createAlias({ name: 'u-holder', canonical_id: await newEntity(), mount_accessor: accA });
    const alias = await createAlias({ name: 'u-taker', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { name: 'u-holder' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain(other.id);
    expect(err.errors[0]).toContain(other.canonical_id);
  });

  it('refuses to move an alias to an entity that has an alias on that mount', async () => {
    const target = await newEntity();
    await createAlias({ name: 'u-target-has', canonical_id: target, mount_accessor: accA });
    const alias = await createAlias({ name: 'u-wants-move', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { canonical_id: target } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('given entity already has an alias for this mount');
  });

  it('refuses to move an alias to a mount where its entity already has one', async () => {
    const entity = await newEntity();
    await createAlias({ name: 'u-on-b', canonical_id: entity, mount_accessor: accB });
    const alias = await createAlias({ name: 'u-on-a', canonical_id: entity, mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { mount_accessor: accB } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain("already has an alias for the given 'mount_accessor'");
  });

  it('refuses a field of the wrong type, naming it', async () => {
    const alias = await createAlias({ name: 'u-type', canonical_id: await newEntity(), mount_accessor: accA });
    const err = await apiError(c.secrets('POST', `identity/entity-alias/id/${alias.id}`, { body: { custom_metadata: [1, 2] } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('"custom_metadata"');
  });
});

describe('delete', () => {
  it('answers 204, removes the alias, and answers 204 again when it is gone', async () => {
    const entity = await newEntity();
    const alias = await createAlias({ name: 'deleted', canonical_id: entity, mount_accessor: accA });
    expect(await c.secrets('DELETE', `identity/entity-alias/id/${alias.id}`)).toBeUndefined();
    expect((await apiError(c.secrets('GET', `identity/entity-alias/id/${alias.id}`))).statusCode).toBe(404);
    expect(await c.secrets('DELETE', `identity/entity-alias/id/${alias.id}`)).toBeUndefined();
    // the entity stays, and may have an alias on that mount again
    expect((await c.secrets('GET', `identity/entity/id/${entity}`))!.data!.aliases).toEqual([]);
    await expect(createAlias({ name: 'deleted', canonical_id: entity, mount_accessor: accA })).resolves.toBeDefined();
  });
});

describe('list', () => {
  it('answers the same keys and key_info for LIST and GET ?list=true', async () => {
    const alias = await createAlias({ name: 'listed', canonical_id: await newEntity(), mount_accessor: accB, custom_metadata: { x: 'y' } });
    const viaList = await c.secrets('LIST', 'identity/entity-alias/id');
    const viaGet = await c.secrets('GET', 'identity/entity-alias/id', { query: { list: 'true' } });
    expect(viaGet!.data).toEqual(viaList!.data);
    const keys = viaList!.data!.keys as string[];
    expect(keys).toContain(alias.id);
    const info = (viaList!.data!.key_info as Record<string, Record<string, unknown>>)[alias.id];
    expect(info).toEqual({
      name: 'listed',
      canonical_id: alias.canonical_id,
      mount_accessor: accB,
      mount_type: 'cloud',
      mount_path: 'auth/alias-b/',
      custom_metadata: { x: 'y' },
      local: false,
    });
    expect(Object.keys(viaList!.data!.key_info as object).sort()).toEqual([...keys].sort());
  });
});

describe('disabling an auth mount', () => {
  it('removes the aliases of that mount and keeps the others', async () => {
    const acc = await enableMount('alias-gone');
    const entity = await newEntity();
    const onGone = await createAlias({ name: 'doomed', canonical_id: entity, mount_accessor: acc });
    const onA = await createAlias({ name: 'survivor', canonical_id: entity, mount_accessor: accA });
    await c.secrets('DELETE', 'sys/auth/alias-gone');
    expect((await apiError(c.secrets('GET', `identity/entity-alias/id/${onGone.id}`))).statusCode).toBe(404);
    expect((await readAlias(onA.id)).name).toBe('survivor');
    const keys = (await c.secrets('LIST', 'identity/entity-alias/id'))!.data!.keys as string[];
    expect(keys).not.toContain(onGone.id);
    const aliases = (await c.secrets('GET', `identity/entity/id/${entity}`))!.data!.aliases as Array<{ id: string }>;
    expect(aliases.map((a) => a.id)).toEqual([onA.id]);
  });
});

describe('permissions', () => {
  it('needs update, not only create, to rewrite an existing alias through identity/entity-alias', async () => {
    await c.secrets('POST', 'sys/policies/acl/alias-creator', {
      body: { policy: 'path "identity/entity-alias" { capabilities = ["create"] }\npath "identity/entity" { capabilities = ["create"] }' },
    });
    const tokenMount = ts.server.services.mounts.get('auth/token/')!;
    const { secret } = await ts.server.services.tokens.create({ policies: ['alias-creator'], path: 'auth/token/create', mountAccessor: tokenMount.accessor });
    const limited = ts.client(secret);
    const entity = await newEntity();
    const created = await limited.secrets('POST', 'identity/entity-alias', { body: { name: 'limited', canonical_id: entity, mount_accessor: accA } });
    const err = await apiError(
      limited.secrets('POST', 'identity/entity-alias', { body: { id: created!.data!.id, name: 'hijacked', canonical_id: entity, mount_accessor: accA } }),
    );
    expect(err.statusCode).toBe(403);
    expect((await readAlias(created!.data!.id as string)).name).toBe('limited');
  });
});
