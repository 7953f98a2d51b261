import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { authMount, identityClient, type Body, type IdentityClient } from './support.js';

let s: InProcessServer;
let c: IdentityClient;
let accessor: string;
let otherAccessor: string;

const RFC3339_NANO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

async function externalGroup(name: string): Promise<string> {
  return (await c.ok('POST', 'identity/group', { name, type: 'external', policies: ['ext'] }))!.id as string;
}

async function alias(body: Body): Promise<{ id: string; canonical_id: string }> {
  return (await c.ok('POST', 'identity/group-alias', body)) as { id: string; canonical_id: string };
}

beforeAll(async () => {
  s = await startInProcessServer();
  c = identityClient(s);
  accessor = await authMount(s, 'grp-cloud');
  otherAccessor = await authMount(s, 'grp-cloud-2');
});

afterAll(async () => {
  await s?.close();
});

describe('identity/group-alias', () => {
  it('attaches an alias to an external group; both reads show it', async () => {
    const groupId = await externalGroup('ext-engineering');
    const created = await alias({ name: 'engineering', mount_accessor: accessor, canonical_id: groupId });
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), canonical_id: groupId });

    const read = (await c.ok('GET', `identity/group-alias/id/${created.id}`))!;
    expect(read).toMatchObject({
      id: created.id,
      canonical_id: groupId,
      mount_accessor: accessor,
      mount_path: 'auth/grp-cloud/',
      mount_type: 'cloud',
      name: 'engineering',
      metadata: null,
      custom_metadata: null,
      merged_from_canonical_ids: null,
      namespace_id: 'root',
      local: false,
    });
    expect(read.creation_time).toMatch(RFC3339_NANO);

    const group = (await c.ok('GET', `identity/group/id/${groupId}`))!;
    expect(group).toMatchObject({ type: 'external', member_entity_ids: [], alias: { id: created.id, name: 'engineering', mount_accessor: accessor, mount_path: 'auth/grp-cloud/' } });
    const info = (await c.ok('LIST', 'identity/group/id'))!.key_info as Record<string, Body>;
    expect(info[groupId].alias).toEqual({ id: created.id, name: 'engineering', mount_accessor: accessor, mount_type: 'cloud', mount_path: 'auth/grp-cloud/' });
  });

  it('creates a new external group for an alias without canonical_id', async () => {
    const created = await alias({ name: 'auto-group', mount_accessor: accessor });
    expect((await c.ok('GET', `identity/group/id/${created.canonical_id}`))!).toMatchObject({
      type: 'external',
      name: expect.stringMatching(/^group_[0-9a-f]{8}$/),
      alias: { id: created.id },
    });
  });

  it('lists aliases by id with their group and mount', async () => {
    const created = await alias({ name: 'listed-group', mount_accessor: accessor });
    const data = (await c.ok('LIST', 'identity/group-alias/id'))!;
    expect(data.keys).toContain(created.id);
    expect((data.key_info as Record<string, Body>)[created.id]).toEqual({
      name: 'listed-group',
      canonical_id: created.canonical_id,
      mount_accessor: accessor,
      mount_type: 'cloud',
      mount_path: 'auth/grp-cloud/',
      custom_metadata: null,
      metadata: null,
      local: false,
    });
  });

  it('updates by id, moving the alias to another external group', async () => {
    const first = await externalGroup('ext-move-from');
    const second = await externalGroup('ext-move-to');
    const created = await alias({ name: 'movable', mount_accessor: accessor, canonical_id: first });
    // The same values again change nothing: 204.
    expect(await c.ok('POST', `identity/group-alias/id/${created.id}`, { name: 'movable', mount_accessor: accessor })).toBeUndefined();
    expect(await c.ok('POST', `identity/group-alias/id/${created.id}`, { name: 'moved', mount_accessor: otherAccessor, canonical_id: second })).toEqual({
      id: created.id,
      canonical_id: second,
    });
    expect((await c.ok('GET', `identity/group/id/${first}`))!.alias).toEqual({});
    expect((await c.ok('GET', `identity/group/id/${second}`))!.alias).toMatchObject({ id: created.id, name: 'moved', mount_accessor: otherAccessor });
    // The old factors are free again.
    await alias({ name: 'movable', mount_accessor: accessor });
  });

  it('deletes an alias, keeping its group, and again without error', async () => {
    const groupId = await externalGroup('ext-alias-del');
    const created = await alias({ name: 'deletable', mount_accessor: accessor, canonical_id: groupId });
    expect(await c.ok('DELETE', `identity/group-alias/id/${created.id}`)).toBeUndefined();
    await c.fails(404, 'GET', `identity/group-alias/id/${created.id}`);
    expect((await c.ok('GET', `identity/group/id/${groupId}`))!.alias).toEqual({});
    expect(await c.ok('DELETE', `identity/group-alias/id/${created.id}`)).toBeUndefined();
  });

  it('deleting the group deletes its alias', async () => {
    const groupId = await externalGroup('ext-group-del');
    const created = await alias({ name: 'goes-with-group', mount_accessor: accessor, canonical_id: groupId });
    await c.ok('DELETE', `identity/group/id/${groupId}`);
    await c.fails(404, 'GET', `identity/group-alias/id/${created.id}`);
    await alias({ name: 'goes-with-group', mount_accessor: accessor });
  });

  it('disabling the auth mount removes its group aliases', async () => {
    const doomed = await authMount(s, 'grp-cloud-doomed');
    const created = await alias({ name: 'on-doomed-mount', mount_accessor: doomed });
    await c.ok('DELETE', 'sys/auth/grp-cloud-doomed');
    await c.fails(404, 'GET', `identity/group-alias/id/${created.id}`);
    expect((await c.ok('GET', `identity/group/id/${created.canonical_id}`))!.alias).toEqual({});
  });

  it.each<[Body, string]>([
    [{ mount_accessor: 'x' }, 'missing alias name'],
    [{ name: 'n' }, 'missing mount_accessor'],
    [{ name: 'n', mount_accessor: 'auth_cloud_nope' }, 'invalid mount accessor "auth_cloud_nope"'],
    [{ name: 'n', mount_accessor: 'ACCESSOR', canonical_id: 'c0000000-0000-0000-0000-000000000000' }, "invalid group ID given in 'canonical_id'"],
  ])('refuses %j with Vault\'s message', async (body, message) => {
    const sent = { ...body, ...(body.mount_accessor === 'ACCESSOR' ? { mount_accessor: accessor } : {}) };
    expect(await c.fails(400, 'POST', 'identity/group-alias', sent)).toEqual([message]);
  });

  it('refuses an alias on an internal group', async () => {
    const internal = (await c.ok('POST', 'identity/group', { name: 'int-no-alias' }))!.id as string;
    expect(await c.fails(400, 'POST', 'identity/group-alias', { name: 'x', mount_accessor: accessor, canonical_id: internal })).toEqual([
      "alias can't be set on an internal group",
    ]);
  });

  it('refuses factors another group alias has, and an unknown alias id', async () => {
    await alias({ name: 'taken-factors', mount_accessor: accessor });
    expect(await c.fails(400, 'POST', 'identity/group-alias', { name: 'taken-factors', mount_accessor: accessor })).toEqual([
      'combination of mount and group alias name is already in use',
    ]);
    expect(await c.fails(400, 'POST', 'identity/group-alias/id/a0000000-0000-0000-0000-000000000000', { name: 'x', mount_accessor: accessor })).toEqual([
      'invalid group alias ID',
    ]);
  });

  it('lets an entity alias and a group alias share factors: they are separate namespaces in Vault', async () => {
    const entityId = (await c.ok('POST', 'identity/entity', { name: 'shares-factors' }))!.id as string;
    await c.ok('POST', 'identity/entity-alias', { name: 'shared-factors', mount_accessor: accessor, canonical_id: entityId });
    await alias({ name: 'shared-factors', mount_accessor: accessor });
  });
});

describe('identity/lookup/group', () => {
  it('answers the group as its read does, by each criterion', async () => {
    const groupId = await externalGroup('ext-lookup');
    const created = await alias({ name: 'lookup-me', mount_accessor: accessor, canonical_id: groupId });
    const read = await c.ok('GET', `identity/group/id/${groupId}`);
    for (const body of [{ id: groupId }, { name: 'ext-lookup' }, { alias_id: created.id }, { alias_name: 'lookup-me', alias_mount_accessor: accessor }]) {
      expect(await c.ok('POST', 'identity/lookup/group', body)).toEqual(read);
    }
  });

  it('answers 204 when nothing matches', async () => {
    for (const body of [{ id: 'nope' }, { name: 'nope' }, { alias_id: 'nope' }, { alias_name: 'nope', alias_mount_accessor: accessor }]) {
      expect((await c.call('POST', 'identity/lookup/group', body)).status).toBe(204);
    }
  });

  it.each([
    [{}, 'one of "id", "name", "alias_id" or a pair of "alias_name" and "alias_mount_accessor" must be supplied'],
    [{ id: 'a', name: 'b' }, 'only one of "id", "name", "alias_id" or a pair of "alias_name" and "alias_mount_accessor" must be supplied'],
    [{ alias_name: 'a' }, 'alias_name and alias_mount_accessor must both be supplied'],
  ])('refuses %j', async (body, message) => {
    expect(await c.fails(400, 'POST', 'identity/lookup/group', body)).toEqual([message]);
  });
});
