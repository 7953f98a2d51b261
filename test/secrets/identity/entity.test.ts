import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let ts: InProcessServer;
let c: ApiClient;
let accessor: string;

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

async function create(body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  const res = await c.secrets('POST', 'identity/entity', { body });
  return res!.data as { id: string; name: string };
}

async function read(id: string): Promise<Record<string, unknown>> {
  return (await c.secrets('GET', `identity/entity/id/${id}`))!.data!;
}

beforeAll(async () => {
  ts = await startInProcessServer();
  c = ts.client();
  await c.secrets('POST', 'sys/auth/ent-cloud', { body: { type: 'cloud' } });
  accessor = ts.server.services.mounts.get('auth/ent-cloud/')!.accessor;
});

afterAll(async () => {
  await ts?.close();
});

// Runs first in this file: no entity exists until the tests below make some.
describe('listing with no entities', () => {
  it.each(['identity/entity/id', 'identity/entity/name'])('LIST %s answers 404', async (path) => {
    expect((await apiError(c.secrets('LIST', path))).statusCode).toBe(404);
  });
});

describe('create', () => {
  it('answers the id, the name and null aliases', async () => {
    const res = await c.secrets('POST', 'identity/entity', { body: { name: 'ent-new', policies: 'a,b', metadata: { team: 'web' } } });
    expect(Object.keys(res!.data!).sort()).toEqual(['aliases', 'id', 'name']);
    expect(res!.data).toMatchObject({ name: 'ent-new', aliases: null });
    expect(res!.data!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names an entity created without a name entity_<8 hex>', async () => {
    const { name } = await create({});
    expect(name).toMatch(/^entity_[0-9a-f]{8}$/);
  });

  it('updates the entity of that name when the name is taken and no id is given (Vault)', async () => {
    const first = await create({ name: 'ent-upsert', policies: ['p1'] });
    const again = await c.secrets('POST', 'identity/entity', { body: { name: 'ent-upsert', policies: ['p2'] } });
    expect(again).toBeUndefined();
    expect((await read(first.id)).policies).toEqual(['p2']);
    const names = (await c.secrets('LIST', 'identity/entity/name'))!.data!.keys as string[];
    expect(names.filter((n) => n === 'ent-upsert')).toHaveLength(1);
  });

  it('with an id, updates that entity', async () => {
    const { id } = await create({ name: 'ent-by-body-id' });
    expect(await c.secrets('POST', 'identity/entity', { body: { id, disabled: true } })).toBeUndefined();
    expect((await read(id)).disabled).toBe(true);
  });

  it('with an unknown id, refuses', async () => {
    const err = await apiError(create({ id: 'f0000000-0000-0000-0000-000000000000', name: 'x' }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['entity not found from id']);
  });

  it.each([
    ['policies', { a: 1 }],
    ['metadata', 5],
    ['metadata', 'not json'],
    ['disabled', 'maybe'],
    ['name', ['a']],
  ])('refuses %s of the wrong type (%j), naming the field', async (field, value) => {
    const err = await apiError(create({ name: `ent-type-${field}`, [field]: value }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain(`"${field}"`);
  });

  it('keeps names unique when creates race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => c.secrets('POST', 'identity/entity', { body: { name: 'ent-race' } })));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const names = (await c.secrets('LIST', 'identity/entity/name'))!.data!.keys as string[];
    expect(names.filter((n) => n === 'ent-race')).toHaveLength(1);
  });
});

describe('read', () => {
  it('answers every field, by id and by name alike', async () => {
    const { id } = await create({ name: 'ent-shape', policies: ['dev', 'ops'], metadata: { team: 'web' } });
    const alias = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'ent-shape-alias', canonical_id: id, mount_accessor: accessor } });
    const data = await read(id);
    expect(Object.keys(data).sort()).toEqual(
      [
        'aliases',
        'bucket_key',
        'creation_time',
        'direct_group_ids',
        'disabled',
        'group_ids',
        'id',
        'inherited_group_ids',
        'last_update_time',
        'merged_entity_ids',
        'metadata',
        'name',
        'namespace_id',
        'policies',
      ].sort(),
    );
    expect(data).toMatchObject({
      id,
      name: 'ent-shape',
      policies: ['dev', 'ops'],
      metadata: { team: 'web' },
      disabled: false,
      direct_group_ids: [],
      group_ids: [],
      inherited_group_ids: [],
      merged_entity_ids: null,
      namespace_id: 'root',
      bucket_key: '',
    });
    expect(data.creation_time).toMatch(RFC3339_NANO);
    expect(data.last_update_time).toMatch(RFC3339_NANO);
    const aliases = data.aliases as Array<Record<string, unknown>>;
    expect(aliases).toHaveLength(1);
    expect(aliases[0]).toMatchObject({
      id: alias!.data!.id,
      canonical_id: id,
      name: 'ent-shape-alias',
      mount_accessor: accessor,
      mount_path: 'auth/ent-cloud/',
      mount_type: 'cloud',
    });
    const byName = await c.secrets('GET', 'identity/entity/name/ent-shape');
    expect(byName!.data).toEqual(data);
  });

  it.each(['identity/entity/id/a1111111-0000-0000-0000-000000000000', 'identity/entity/name/nobody'])('answers 404 for %s', async (path) => {
    expect((await apiError(c.secrets('GET', path))).statusCode).toBe(404);
  });
});

describe('update', () => {
  it('changes only the fields given and moves last_update_time forward', async () => {
    const { id } = await create({ name: 'ent-partial', policies: ['p'], metadata: { a: '1' } });
    const before = await read(id);
    expect(await c.secrets('POST', `identity/entity/id/${id}`, { body: { disabled: true } })).toBeUndefined();
    const after = await read(id);
    expect(after).toMatchObject({ name: 'ent-partial', policies: ['p'], metadata: { a: '1' }, disabled: true });
    expect(after.creation_time).toBe(before.creation_time);
    expect(after.last_update_time).not.toBe(before.last_update_time);
    await c.secrets('POST', `identity/entity/id/${id}`, { body: { metadata: { b: '2' } } });
    expect(await read(id)).toMatchObject({ policies: ['p'], metadata: { b: '2' }, disabled: true });
  });

  it('renames, freeing the old name', async () => {
    const { id } = await create({ name: 'ent-old-name' });
    await c.secrets('POST', `identity/entity/id/${id}`, { body: { name: 'ent-new-name' } });
    expect((await c.secrets('GET', 'identity/entity/name/ent-new-name'))!.data!.id).toBe(id);
    expect((await apiError(c.secrets('GET', 'identity/entity/name/ent-old-name'))).statusCode).toBe(404);
  });

  it('refuses a name another entity has', async () => {
    await create({ name: 'ent-holder' });
    const { id } = await create({ name: 'ent-wants-name' });
    for (const attempt of [
      c.secrets('POST', `identity/entity/id/${id}`, { body: { name: 'ent-holder' } }),
      c.secrets('POST', 'identity/entity', { body: { id, name: 'ent-holder' } }),
    ]) {
      const err = await apiError(attempt);
      expect(err.statusCode).toBe(400);
      expect(err.errors).toEqual(['entity name is already in use']);
    }
    expect((await read(id)).name).toBe('ent-wants-name');
  });

  it('refuses an unknown id', async () => {
    const err = await apiError(c.secrets('POST', 'identity/entity/id/a2222222-0000-0000-0000-000000000000', { body: { policies: ['x'] } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual(['entity not found from id']);
  });

  it('refuses a field of the wrong type, naming it', async () => {
    const { id } = await create({ name: 'ent-upd-type' });
    const err = await apiError(c.secrets('POST', `identity/entity/id/${id}`, { body: { disabled: 'sometimes' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('"disabled"');
  });
});

describe('by name', () => {
  it('creates on the first write and updates on the next', async () => {
    const created = await c.secrets('POST', 'identity/entity/name/ent-named', { body: { policies: ['one'] } });
    expect(created!.data).toMatchObject({ name: 'ent-named', aliases: null });
    const id = created!.data!.id as string;
    expect(await c.secrets('POST', 'identity/entity/name/ent-named', { body: { policies: ['two'] } })).toBeUndefined();
    expect(await read(id)).toMatchObject({ name: 'ent-named', policies: ['two'] });
  });

  it('deletes by name, with the aliases, and again without error', async () => {
    const { id } = await create({ name: 'ent-del-name' });
    const alias = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'ent-del-name-alias', canonical_id: id, mount_accessor: accessor } });
    expect(await c.secrets('DELETE', 'identity/entity/name/ent-del-name')).toBeUndefined();
    expect((await apiError(c.secrets('GET', `identity/entity/id/${id}`))).statusCode).toBe(404);
    expect((await apiError(c.secrets('GET', `identity/entity-alias/id/${alias!.data!.id as string}`))).statusCode).toBe(404);
    expect(await c.secrets('DELETE', 'identity/entity/name/ent-del-name')).toBeUndefined();
  });
});

describe('delete by id', () => {
  it('deletes the entity and its aliases, frees its name, and answers 204 again when gone', async () => {
    const { id } = await create({ name: 'ent-del' });
    const alias = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'ent-del-alias', canonical_id: id, mount_accessor: accessor } });
    const aliasId = alias!.data!.id as string;
    expect(await c.secrets('DELETE', `identity/entity/id/${id}`)).toBeUndefined();
    expect((await apiError(c.secrets('GET', `identity/entity/id/${id}`))).statusCode).toBe(404);
    expect((await apiError(c.secrets('GET', `identity/entity-alias/id/${aliasId}`))).statusCode).toBe(404);
    const aliasKeys = ((await c.secrets('LIST', 'identity/entity-alias/id').catch(() => undefined))?.data?.keys ?? []) as string[];
    expect(aliasKeys).not.toContain(aliasId);
    expect(await c.secrets('DELETE', `identity/entity/id/${id}`)).toBeUndefined();
    // the alias's (mount, name) and the entity's name are free again
    const other = await create({ name: 'ent-del' });
    await expect(
      c.secrets('POST', 'identity/entity-alias', { body: { name: 'ent-del-alias', canonical_id: other.id, mount_accessor: accessor } }),
    ).resolves.toBeDefined();
  });
});

describe('list', () => {
  it('answers the same for LIST and GET ?list=true, with names and aliases in key_info', async () => {
    const { id } = await create({ name: 'ent-listed' });
    const alias = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'ent-listed-alias', canonical_id: id, mount_accessor: accessor } });
    const { id: bare } = await create({ name: 'ent-listed-bare' });
    const viaList = await c.secrets('LIST', 'identity/entity/id');
    const viaGet = await c.secrets('GET', 'identity/entity/id', { query: { list: 'true' } });
    expect(viaGet!.data).toEqual(viaList!.data);
    const keys = viaList!.data!.keys as string[];
    expect(keys).toEqual(expect.arrayContaining([id, bare]));
    const info = viaList!.data!.key_info as Record<string, Record<string, unknown>>;
    expect(Object.keys(info).sort()).toEqual([...keys].sort());
    expect(info[bare]).toEqual({ name: 'ent-listed-bare' });
    expect(info[id]).toEqual({
      name: 'ent-listed',
      aliases: [{ id: alias!.data!.id, name: 'ent-listed-alias', mount_accessor: accessor, mount_type: 'cloud', mount_path: 'auth/ent-cloud/' }],
    });
  });

  it('lists names, sorted, for LIST identity/entity/name', async () => {
    await create({ name: 'ent-zz' });
    await create({ name: 'ent-aa' });
    const viaList = await c.secrets('LIST', 'identity/entity/name');
    const viaGet = await c.secrets('GET', 'identity/entity/name', { query: { list: 'true' } });
    expect(viaGet!.data).toEqual(viaList!.data);
    const keys = viaList!.data!.keys as string[];
    expect(keys).toEqual(expect.arrayContaining(['ent-zz', 'ent-aa']));
    expect(keys).toEqual([...keys].sort());
    const info = viaList!.data!.key_info as Record<string, { id: string; name: string }>;
    expect(info['ent-aa'].name).toBe('ent-aa');
    expect((await read(info['ent-aa'].id)).name).toBe('ent-aa');
  });
});
