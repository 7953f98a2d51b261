import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { authMount, identityClient, type Body, type IdentityClient } from './support.js';

let s: InProcessServer;
let c: IdentityClient;
let accA: string;
let accB: string;
let badCount = 0;

async function entity(name: string, body: Body = {}): Promise<string> {
  return (await c.ok('POST', 'identity/entity', { name, ...body }))!.id as string;
}

async function alias(name: string, entityId: string, mountAccessor: string): Promise<string> {
  return (await c.ok('POST', 'identity/entity-alias', { name, canonical_id: entityId, mount_accessor: mountAccessor }))!.id as string;
}

const read = async (id: string): Promise<Body> => (await c.ok('GET', `identity/entity/id/${id}`))!;
const merge = (body: Body) => c.call('POST', 'identity/entity/merge', body);

beforeAll(async () => {
  s = await startInProcessServer();
  c = identityClient(s);
  accA = await authMount(s, 'merge-a');
  accB = await authMount(s, 'merge-b');
});

afterAll(async () => {
  await s?.close();
});

describe('identity/entity/merge', () => {
  it('moves the aliases and group memberships to the target and deletes the from entity', async () => {
    const to = await entity('merge-to', { policies: ['to-policy'] });
    const from = await entity('merge-from', { policies: ['from-policy'] });
    await alias('to-a', to, accA);
    const moved = await alias('from-b', from, accB);
    const groupId = (await c.ok('POST', 'identity/group', { name: 'merge-group', member_entity_ids: [from] }))!.id as string;

    expect((await merge({ to_entity_id: to, from_entity_ids: [from] })).status).toBe(204);

    await c.fails(404, 'GET', `identity/entity/id/${from}`);
    await c.fails(404, 'GET', 'identity/entity/name/merge-from');
    const target = await read(to);
    // Policies are not merged through the API, as in Vault.
    expect(target).toMatchObject({ policies: ['to-policy'], merged_entity_ids: [from], direct_group_ids: [groupId] });
    expect((target.aliases as Body[]).map((a) => a.name).sort()).toEqual(['from-b', 'to-a']);
    expect(await c.ok('GET', `identity/entity-alias/id/${moved}`)).toMatchObject({ canonical_id: to, merged_from_canonical_ids: [from] });
    expect((await c.ok('GET', `identity/group/id/${groupId}`))!.member_entity_ids).toEqual([to]);
    // A login through the moved alias now finds the target.
    expect((await s.server.services.identity.upsertLoginAlias({ mountAccessor: accB, name: 'from-b' })).entityId).toBe(to);
  });

  it('lets tokens of the merged entity act as the target entity', async () => {
    await c.ok('PUT', 'sys/policies/acl/merge-probe', { policy: 'path "identity/entity/name/merge-probe-target" { capabilities = ["read"] }' });
    const to = await entity('merge-probe-target', { policies: ['merge-probe'] });
    const from = await entity('merge-probe-from');
    const res = await s.request('POST', '/v1/auth/token/create', { body: { entity_id: from, policies: ['default'] } });
    const token = (res.body as { auth: { client_token: string } }).auth.client_token;
    await c.fails(403, 'GET', 'identity/entity/name/merge-probe-target', undefined, token);

    await c.ok('POST', 'identity/entity/merge', { to_entity_id: to, from_entity_ids: from });

    expect((await c.ok('GET', 'identity/entity/name/merge-probe-target', undefined, token))!.id).toBe(to);
    expect((await c.ok('GET', 'auth/token/lookup-self', undefined, token))!.identity_policies).toEqual(['merge-probe']);
    // Disabling the target refuses the merged entity's tokens too.
    await c.ok('POST', `identity/entity/id/${to}`, { disabled: true });
    await c.fails(403, 'GET', 'auth/token/lookup-self', undefined, token);
  });

  it('carries entities merged earlier along to a later target', async () => {
    const first = await entity('merge-chain-1');
    const second = await entity('merge-chain-2');
    const third = await entity('merge-chain-3', { policies: ['chain'] });
    await c.ok('POST', 'identity/entity/merge', { to_entity_id: second, from_entity_ids: [first] });
    await c.ok('POST', 'identity/entity/merge', { to_entity_id: third, from_entity_ids: [second] });
    expect((await read(third)).merged_entity_ids).toEqual([first, second]);
    expect(s.server.services.identity.entityPolicies(first)).toEqual(['chain']);
  });

  it('refuses aliases on the same mount, naming both, and writes nothing', async () => {
    const to = await entity('clash-to');
    const from = await entity('clash-from');
    const toAlias = await alias('clash-to-a', to, accA);
    const fromAlias = await alias('clash-from-a', from, accA);
    const res = await merge({ to_entity_id: to, from_entity_ids: [from], force: true });
    expect(res.status).toBe(400);
    expect((res.body as { errors: string[] }).errors).toEqual([
      '2 errors occurred:\n\t* toEntity and at least one fromEntity have aliases with the same mount accessor, repeat the merge request ' +
        `specifying exactly one fromEntity, clashes: \n\t* mountAccessor: ${accA}, toEntity ID: ${to}, fromEntity ID: ${from}, ` +
        `conflicting toEntity alias ID: ${toAlias}, conflicting fromEntity alias ID: ${fromAlias}\n\n`,
    ]);
    expect(await read(from)).toMatchObject({ name: 'clash-from' });
    expect(await c.ok('GET', `identity/entity-alias/id/${fromAlias}`)).toMatchObject({ canonical_id: from });
  });

  it('resolves a clash by conflicting_alias_ids_to_keep: the from alias kept replaces the target\'s', async () => {
    const to = await entity('keep-from-to');
    const from = await entity('keep-from-from');
    const toAlias = await alias('keep-from-to-a', to, accA);
    const fromAlias = await alias('keep-from-from-a', from, accA);
    expect((await merge({ to_entity_id: to, from_entity_ids: [from], conflicting_alias_ids_to_keep: [fromAlias] })).status).toBe(204);
    expect((await read(to)).aliases).toEqual([expect.objectContaining({ id: fromAlias, name: 'keep-from-from-a' })]);
    await c.fails(404, 'GET', `identity/entity-alias/id/${toAlias}`);
  });

  it('resolves a clash by conflicting_alias_ids_to_keep: the target alias kept drops the from alias', async () => {
    const to = await entity('keep-to-to');
    const from = await entity('keep-to-from');
    const toAlias = await alias('keep-to-to-a', to, accA);
    const fromAlias = await alias('keep-to-from-a', from, accA);
    await c.ok('POST', 'identity/entity/merge', { to_entity_id: to, from_entity_ids: [from], conflicting_alias_ids_to_keep: [toAlias] });
    expect((await read(to)).aliases).toEqual([expect.objectContaining({ id: toAlias })]);
    await c.fails(404, 'GET', `identity/entity-alias/id/${fromAlias}`);
  });

  it('refuses a keep list that names neither alias of a clash', async () => {
    const to = await entity('keep-none-to');
    const from = await entity('keep-none-from');
    const toAlias = await alias('keep-none-to-a', to, accA);
    const fromAlias = await alias('keep-none-from-a', from, accA);
    expect(await c.fails(400, 'POST', 'identity/entity/merge', { to_entity_id: to, from_entity_ids: [from], conflicting_alias_ids_to_keep: ['other'] })).toEqual([
      `conflicting mount accessors in following alias IDs and neither were present in conflicting_alias_ids_to_keep: ${fromAlias}, ${toAlias}`,
    ]);
    expect(await read(from)).toMatchObject({ name: 'keep-none-from' });
  });

  it('refuses two from entities with aliases on one mount', async () => {
    const to = await entity('multi-to');
    const one = await entity('multi-one');
    const two = await entity('multi-two');
    await alias('multi-one-b', one, accB);
    await alias('multi-two-b', two, accB);
    expect(await c.fails(400, 'POST', 'identity/entity/merge', { to_entity_id: to, from_entity_ids: [one, two] })).toEqual([
      `mount accessor ${accB} found in multiple fromEntities, merge should be done with one fromEntity at a time`,
    ]);
  });

  it.each([
    [{ from_entity_ids: ['x'] }, 'missing entity id to merge to'],
    [{ to_entity_id: 'x' }, 'missing entity ids to merge from'],
    [{ to_entity_id: 'a0000000-0000-0000-0000-000000000000', from_entity_ids: ['x'] }, 'entity id to merge to is invalid'],
    [{ to_entity_id: 'TO', from_entity_ids: ['b0000000-0000-0000-0000-000000000000'] }, 'entity id to merge from is invalid'],
    [{ to_entity_id: 'TO', from_entity_ids: ['TO'] }, 'to_entity_id should not be present in from_entity_ids'],
    [{ to_entity_id: 'TO', from_entity_ids: ['x', 'y'], conflicting_alias_ids_to_keep: ['a', 'b'] }, 'aliases conflicts cannot be resolved with multiple from entity ids - merge one entity at a time'],
  ])('refuses %j with Vault\'s message', async (body, message) => {
    const to = await entity(`merge-bad-${++badCount}`);
    const sent = JSON.parse(JSON.stringify(body).replaceAll('"TO"', JSON.stringify(to))) as Body;
    expect(await c.fails(400, 'POST', 'identity/entity/merge', sent)).toEqual([message]);
  });
});
