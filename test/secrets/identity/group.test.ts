import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { identityClient, type Body, type IdentityClient } from './support.js';

let s: InProcessServer;
let c: IdentityClient;

const RFC3339_NANO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

async function group(body: Body): Promise<{ id: string; name: string }> {
  return (await c.ok('POST', 'identity/group', body)) as { id: string; name: string };
}

async function entity(name: string): Promise<string> {
  return (await c.ok('POST', 'identity/entity', { name }))!.id as string;
}

const read = async (id: string): Promise<Body> => (await c.ok('GET', `identity/group/id/${id}`))!;

beforeAll(async () => {
  s = await startInProcessServer();
  c = identityClient(s);
});

afterAll(async () => {
  await s?.close();
});

// Runs first in this file: no group exists until the tests below make some.
describe('listing with no groups', () => {
  it.each(['identity/group/id', 'identity/group/name'])('LIST %s answers 404', async (path) => {
    await c.fails(404, 'LIST', path);
  });
});

describe('create', () => {
  it('answers only the id and the name', async () => {
    const data = await c.ok('POST', 'identity/group', { name: 'grp-new', policies: 'b,a' });
    expect(Object.keys(data!).sort()).toEqual(['id', 'name']);
    expect(data!.name).toBe('grp-new');
    expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names a group created without a name group_<8 hex>', async () => {
    expect((await group({})).name).toMatch(/^group_[0-9a-f]{8}$/);
  });

  it('updates the group of that name when no id is given (Vault), answering 204', async () => {
    const { id } = await group({ name: 'grp-upsert', policies: ['p1'] });
    expect(await c.ok('POST', 'identity/group', { name: 'grp-upsert', policies: ['p2'] })).toBeUndefined();
    expect((await read(id)).policies).toEqual(['p2']);
  });

  it('with an id, updates that group; an unknown id is refused', async () => {
    const { id } = await group({ name: 'grp-body-id' });
    expect(await c.ok('POST', 'identity/group', { id, metadata: { a: '1' } })).toBeUndefined();
    expect((await read(id)).metadata).toEqual({ a: '1' });
    expect(await c.fails(400, 'POST', 'identity/group', { id: 'f0000000-0000-0000-0000-000000000000' })).toEqual(['invalid group ID']);
  });
});

describe('read', () => {
  it('answers every field of Vault\'s group read, by id and by name alike', async () => {
    const member = await entity('grp-shape-member');
    const { id } = await group({ name: 'grp-shape', policies: ['ops', 'dev', 'ops'], metadata: { team: 'web' }, member_entity_ids: [member] });
    const data = await read(id);
    expect(Object.keys(data).sort()).toEqual(
      [
        'alias',
        'creation_time',
        'id',
        'last_update_time',
        'member_entity_ids',
        'member_group_ids',
        'metadata',
        'modify_index',
        'name',
        'namespace_id',
        'parent_group_ids',
        'policies',
        'type',
      ].sort(),
    );
    expect(data).toMatchObject({
      id,
      name: 'grp-shape',
      type: 'internal',
      policies: ['dev', 'ops'],
      metadata: { team: 'web' },
      member_entity_ids: [member],
      member_group_ids: null,
      parent_group_ids: null,
      namespace_id: 'root',
      alias: {},
      modify_index: 1,
    });
    expect(data.creation_time).toMatch(RFC3339_NANO);
    expect(data.last_update_time).toBe(data.creation_time);
    expect((await c.ok('GET', 'identity/group/name/grp-shape'))!).toEqual(data);
  });

  it('lists the group in the member entity\'s direct_group_ids', async () => {
    const member = await entity('grp-entity-view');
    const { id } = await group({ name: 'grp-entity-view', member_entity_ids: [member] });
    expect(await c.ok('GET', `identity/entity/id/${member}`)).toMatchObject({ direct_group_ids: [id], group_ids: [id], inherited_group_ids: [] });
  });

  it.each(['identity/group/id/a1111111-0000-0000-0000-000000000000', 'identity/group/name/nobody'])('answers 404 for %s', async (path) => {
    await c.fails(404, 'GET', path);
  });
});

describe('update by id', () => {
  it('changes only the fields given, counts modify_index and moves last_update_time', async () => {
    const { id } = await group({ name: 'grp-partial', policies: ['p'], metadata: { a: '1' } });
    const before = await read(id);
    expect(await c.ok('POST', `identity/group/id/${id}`, { metadata: { b: '2' } })).toBeUndefined();
    const after = await read(id);
    expect(after).toMatchObject({ name: 'grp-partial', policies: ['p'], metadata: { b: '2' }, modify_index: 2 });
    expect(after.creation_time).toBe(before.creation_time);
    expect(after.last_update_time).not.toBe(before.last_update_time);
  });

  it('renames, freeing the old name', async () => {
    const { id } = await group({ name: 'grp-old' });
    await c.ok('POST', `identity/group/id/${id}`, { name: 'grp-renamed' });
    expect((await c.ok('GET', 'identity/group/name/grp-renamed'))!.id).toBe(id);
    await c.fails(404, 'GET', 'identity/group/name/grp-old');
    await group({ name: 'grp-old' });
  });

  it('refuses an unknown id', async () => {
    expect(await c.fails(400, 'POST', 'identity/group/id/a2222222-0000-0000-0000-000000000000', { policies: ['x'] })).toEqual(['invalid group ID']);
  });
});

describe('by name', () => {
  it('creates on the first write and updates on the next', async () => {
    const created = await c.ok('POST', 'identity/group/name/grp-named', { policies: ['one'] });
    expect(created).toMatchObject({ name: 'grp-named' });
    expect(await c.ok('POST', 'identity/group/name/grp-named', { policies: ['two'] })).toBeUndefined();
    expect(await read(created!.id as string)).toMatchObject({ name: 'grp-named', policies: ['two'] });
  });

  it('deletes by name, and again without error', async () => {
    const { id } = await group({ name: 'grp-del-name' });
    expect(await c.ok('DELETE', 'identity/group/name/grp-del-name')).toBeUndefined();
    await c.fails(404, 'GET', `identity/group/id/${id}`);
    expect(await c.ok('DELETE', 'identity/group/name/grp-del-name')).toBeUndefined();
  });
});

describe('delete by id', () => {
  it('deletes the group, frees its name, and takes it off its members\' parents', async () => {
    const child = await group({ name: 'grp-del-child' });
    const { id } = await group({ name: 'grp-del', member_group_ids: [child.id] });
    expect((await read(child.id)).parent_group_ids).toEqual([id]);
    expect(await c.ok('DELETE', `identity/group/id/${id}`)).toBeUndefined();
    await c.fails(404, 'GET', `identity/group/id/${id}`);
    expect((await read(child.id)).parent_group_ids).toBeNull();
    expect(await c.ok('DELETE', `identity/group/id/${id}`)).toBeUndefined();
    await group({ name: 'grp-del' });
  });

  it('deleting an entity takes it out of its groups, as Vault does', async () => {
    const member = await entity('grp-gone-member');
    const { id } = await group({ name: 'grp-gone', member_entity_ids: [member] });
    await c.ok('DELETE', `identity/entity/id/${member}`);
    expect((await read(id)).member_entity_ids).toEqual([]);
  });
});

describe('list', () => {
  it('answers ids with names, member counts and parents in key_info, for LIST and GET ?list=true', async () => {
    const member = await entity('grp-listed-member');
    const parent = await group({ name: 'grp-listed-parent' });
    const { id } = await group({ name: 'grp-listed', member_entity_ids: [member] });
    await c.ok('POST', `identity/group/id/${parent.id}`, { member_group_ids: [id] });
    const viaList = await c.ok('LIST', 'identity/group/id');
    expect(await c.ok('GET', 'identity/group/id?list=true')).toEqual(viaList);
    expect(viaList!.keys).toEqual(expect.arrayContaining([id, parent.id]));
    expect((viaList!.key_info as Record<string, unknown>)[id]).toEqual({ name: 'grp-listed', num_member_entities: 1, num_parent_groups: 1 });
  });

  it('lists names, sorted', async () => {
    await group({ name: 'grp-zz' });
    await group({ name: 'grp-aa' });
    const keys = (await c.ok('LIST', 'identity/group/name'))!.keys as string[];
    expect(keys).toEqual(expect.arrayContaining(['grp-zz', 'grp-aa']));
    expect(keys).toEqual([...keys].sort());
  });
});

describe('validation', () => {
  it.each([
    [{ name: 'grp-root', policies: ['dev', 'Root'] }, 'policies cannot contain root'],
    [{ name: 'grp-bad-type', type: 'other' }, 'invalid group type "other"'],
    [{ name: 'grp-bad-member', member_entity_ids: ['e0000000-0000-0000-0000-000000000000'] }, 'invalid entity ID "e0000000-0000-0000-0000-000000000000"'],
    [{ name: 'grp-bad-child', member_group_ids: ['g0000000-0000-0000-0000-000000000000'] }, 'invalid member group ID "g0000000-0000-0000-0000-000000000000"'],
    [{ name: 'grp-ext-members', type: 'external', member_entity_ids: [] }, "member entities can't be set manually for external groups"],
    [{ name: 'grp-ext-groups', type: 'external', member_group_ids: [] }, "member groups can't be set for external groups"],
  ])('refuses %j with Vault\'s message, writing nothing', async (body, message) => {
    expect(await c.fails(400, 'POST', 'identity/group', body)).toEqual([message]);
    await c.fails(404, 'GET', `identity/group/name/${body.name}`);
  });

  it('refuses a name another group has', async () => {
    await group({ name: 'grp-holder' });
    const { id } = await group({ name: 'grp-wants' });
    expect(await c.fails(400, 'POST', `identity/group/id/${id}`, { name: 'grp-holder' })).toEqual(['group name is already in use']);
    expect((await read(id)).name).toBe('grp-wants');
  });

  it('refuses to change the type', async () => {
    const { id } = await group({ name: 'grp-typed' });
    expect(await c.fails(400, 'POST', `identity/group/id/${id}`, { type: 'external' })).toEqual(['group type cannot be changed']);
  });

  it.each([
    ['policies', { a: 1 }],
    ['metadata', 5],
    ['member_entity_ids', { a: 1 }],
    ['name', ['a']],
  ])('refuses %s of the wrong type (%j), naming the field', async (field, value) => {
    const errors = await c.fails(400, 'POST', 'identity/group', { [field]: value });
    expect(errors[0]).toContain(`"${field}"`);
  });
});

describe('nested groups', () => {
  it('computes member_group_ids and parent_group_ids from one side of the link', async () => {
    const child = await group({ name: 'grp-nest-child' });
    const { id } = await group({ name: 'grp-nest-parent', member_group_ids: [child.id] });
    expect((await read(id)).member_group_ids).toEqual([child.id]);
    expect((await read(child.id)).parent_group_ids).toEqual([id]);
    // Replacing the list drops the child from the group.
    await c.ok('POST', `identity/group/id/${id}`, { member_group_ids: [] });
    expect((await read(id)).member_group_ids).toBeNull();
    expect((await read(child.id)).parent_group_ids).toBeNull();
  });

  it('refuses the group itself as a member', async () => {
    const { id } = await group({ name: 'grp-self' });
    expect(await c.fails(400, 'POST', `identity/group/id/${id}`, { member_group_ids: [id] })).toEqual([`member group ID "${id}" is same as the ID of the group`]);
  });

  it('refuses a cycle through other groups, leaving every group as it was', async () => {
    const a = await group({ name: 'grp-cycle-a' });
    const b = await group({ name: 'grp-cycle-b', member_group_ids: [a.id] });
    const top = await group({ name: 'grp-cycle-c', member_group_ids: [b.id] });
    // a is below b, which is below c: c as a member of a would close the loop.
    const errors = await c.fails(400, 'POST', `identity/group/id/${a.id}`, { member_group_ids: [top.id], policies: ['changed'] });
    expect(errors).toEqual([`cyclic relationship detected for member group ID "${top.id}"`]);
    expect((await read(top.id)).parent_group_ids).toBeNull();
    expect((await read(a.id)).policies).toEqual([]);
  });
});
