/**
 * Group policies join a token's ACL at request time, through the real request pipeline: a token whose
 * entity is in a group (directly or through member groups) may do what the group's policies allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { identityClient, type IdentityClient } from './support.js';

let s: InProcessServer;
let c: IdentityClient;

/** A path the default policy does not reach, so only a group policy can open it. */
const PROBE = 'identity/entity/name/grp-acl-probe';

async function entityToken(name: string): Promise<{ entityId: string; token: string }> {
  const entityId = (await c.ok('POST', 'identity/entity', { name }))!.id as string;
  const res = await s.request('POST', '/v1/auth/token/create', { body: { entity_id: entityId, policies: ['default'] } });
  return { entityId, token: (res.body as { auth: { client_token: string } }).auth.client_token };
}

const canRead = async (token: string): Promise<boolean> => {
  const { status } = await c.call('GET', PROBE, undefined, token);
  expect([200, 403]).toContain(status);
  return status === 200;
};

beforeAll(async () => {
  s = await startInProcessServer();
  c = identityClient(s);
  await c.ok('PUT', 'sys/policies/acl/grp-probe-read', { policy: `path "${PROBE}" { capabilities = ["read"] }` });
  await c.ok('POST', 'identity/entity', { name: 'grp-acl-probe' });
});

afterAll(async () => {
  await s?.close();
});

describe('group policies in ACL checks', () => {
  it('a member entity\'s token gains the group\'s policy, and loses it when removed from the group', async () => {
    const { entityId, token } = await entityToken('grp-acl-direct');
    expect(await canRead(token)).toBe(false);
    const { id } = (await c.ok('POST', 'identity/group', { name: 'grp-acl-direct', policies: ['grp-probe-read'], member_entity_ids: [entityId] }))!;
    expect(await canRead(token)).toBe(true);
    await c.ok('POST', `identity/group/id/${id as string}`, { member_entity_ids: [] });
    expect(await canRead(token)).toBe(false);
  });

  it('follows a change of the group\'s policies on the next request', async () => {
    const { entityId, token } = await entityToken('grp-acl-policies');
    const { id } = (await c.ok('POST', 'identity/group', { name: 'grp-acl-policies', member_entity_ids: [entityId] }))!;
    expect(await canRead(token)).toBe(false);
    await c.ok('POST', `identity/group/id/${id as string}`, { policies: ['grp-probe-read'] });
    expect(await canRead(token)).toBe(true);
    await c.ok('DELETE', `identity/group/id/${id as string}`);
    expect(await canRead(token)).toBe(false);
  });

  it('grants a parent group\'s policy through every level of member groups', async () => {
    const { entityId, token } = await entityToken('grp-acl-nested');
    const inner = (await c.ok('POST', 'identity/group', { name: 'grp-acl-inner', member_entity_ids: [entityId] }))!.id as string;
    const middle = (await c.ok('POST', 'identity/group', { name: 'grp-acl-middle', member_group_ids: [inner] }))!.id as string;
    const outer = (await c.ok('POST', 'identity/group', { name: 'grp-acl-outer', policies: ['grp-probe-read'] }))!.id as string;
    expect(await canRead(token)).toBe(false);
    await c.ok('POST', `identity/group/id/${outer}`, { member_group_ids: [middle] });
    expect(await canRead(token)).toBe(true);
    expect(await c.ok('GET', `identity/entity/id/${entityId}`)).toMatchObject({
      direct_group_ids: [inner],
      inherited_group_ids: [middle, outer].sort(),
    });
    await c.ok('POST', `identity/group/id/${middle}`, { member_group_ids: [] });
    expect(await canRead(token)).toBe(false);
  });

  it('shows group policies in token lookup-self identity_policies and in capabilities-self', async () => {
    const { entityId, token } = await entityToken('grp-acl-lookup');
    await c.ok('POST', 'identity/entity/name/grp-acl-lookup', { policies: ['entity-own'] });
    await c.ok('POST', 'identity/group', { name: 'grp-acl-lookup', policies: ['grp-probe-read'], member_entity_ids: [entityId] });
    const self = await c.ok('GET', 'auth/token/lookup-self', undefined, token);
    expect([...(self!.identity_policies as string[])].sort()).toEqual(['entity-own', 'grp-probe-read']);
    const caps = await c.ok('POST', 'sys/capabilities-self', { paths: [PROBE] }, token);
    expect(caps![PROBE]).toEqual(['read']);
  });

  it('never grants root through a group, even from a stored record that names it', async () => {
    const { entityId, token } = await entityToken('grp-acl-root');
    expect(await c.fails(400, 'POST', 'identity/group', { name: 'grp-acl-root', policies: ['root'], member_entity_ids: [entityId] })).toEqual([
      'policies cannot contain root',
    ]);
    const { id } = (await c.ok('POST', 'identity/group', { name: 'grp-acl-root', member_entity_ids: [entityId] }))!;
    const stored = s.server.services.identity.getGroup(id as string)!;
    await s.server.services.store.write((tx) => tx.put('groups', stored.id, { ...stored, policies: ['root'] }));
    expect(s.server.services.identity.entityPolicies(entityId)).toEqual([]);
    await c.fails(403, 'GET', 'sys/auth', undefined, token);
  });

  it('gives a disabled entity\'s token nothing from its groups', async () => {
    const { entityId } = await entityToken('grp-acl-disabled');
    await c.ok('POST', 'identity/group', { name: 'grp-acl-disabled', policies: ['grp-probe-read'], member_entity_ids: [entityId] });
    expect(s.server.services.identity.entityPolicies(entityId)).toEqual(['grp-probe-read']);
    await c.ok('POST', `identity/entity/id/${entityId}`, { disabled: true });
    expect(s.server.services.identity.entityPolicies(entityId)).toEqual([]);
  });
});

describe('capabilities on the group paths', () => {
  it('needs update, not only create, to rewrite an existing group or group alias through the create paths', async () => {
    await c.ok('PUT', 'sys/policies/acl/grp-creator', {
      policy: 'path "identity/group" { capabilities = ["create"] }\npath "identity/group-alias" { capabilities = ["create"] }',
    });
    const res = await s.request('POST', '/v1/auth/token/create', { body: { policies: ['grp-creator'] } });
    const limited = (res.body as { auth: { client_token: string } }).auth.client_token;
    const created = (await c.ok('POST', 'identity/group', { name: 'grp-limited', type: 'external' }, limited))!;
    await c.fails(403, 'POST', 'identity/group', { name: 'grp-limited', policies: ['grp-probe-read'] }, limited);
    await c.fails(403, 'POST', 'identity/group', { id: created.id, policies: ['grp-probe-read'] }, limited);
    expect(s.server.services.identity.getGroup(created.id as string)?.policies).toEqual([]);

    const accessor = (await s.server.services.mounts.enable('grp-acl-cloud', 'cloud')).accessor;
    const alias = (await c.ok('POST', 'identity/group-alias', { name: 'limited', mount_accessor: accessor, canonical_id: created.id }, limited))!;
    await c.fails(403, 'POST', 'identity/group-alias', { id: alias.id, name: 'hijacked', mount_accessor: accessor }, limited);
    expect(s.server.services.identity.groupByAliasId(alias.id as string)?.alias?.name).toBe('limited');
  });
});
