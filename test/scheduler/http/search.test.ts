/**
 * POST|PUT /v1/search, Nomad's prefix search: at most 20 IDs per context with a truncation flag, the
 * UUID contexts left out for a prefix that cannot start a UUID, `all` narrowed to the contexts the token
 * may search, a named context it may not search refused, namespace `*` filtered by what the token may
 * read, and the body decoded as Nomad decodes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode } from '../../support/nodes.js';
import { until } from '../../support/wait.js';

interface SearchAnswer {
  Matches: Record<string, string[] | null>;
  Truncations: Record<string, boolean>;
  Index: number;
  KnownLeader: boolean;
}

const mockJob = (id: string, namespace = 'default', count = 1) => ({
  ID: id,
  Namespace: namespace,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 32 } }] }],
});

describe('prefix search', () => {
  let srv: InProcessServer;
  let nodeId: string;
  let allocId: string;
  let evalId: string;
  const tokens: Record<string, string> = {};

  const search = (body: unknown, opts: { namespace?: string; token?: string } = {}) =>
    srv.request('PUT', `/v1/search${opts.namespace ? `?namespace=${encodeURIComponent(opts.namespace)}` : ''}`, { body, token: opts.token });
  const matches = async (body: unknown, opts: { namespace?: string; token?: string } = {}) => {
    const res = await search(body, opts);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as SearchAnswer;
  };

  async function tokenFor(name: string, policy: string): Promise<string> {
    await srv.request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } });
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: [name] } });
    return (created.body as { auth: { client_token: string } }).auth.client_token;
  }

  beforeAll(async () => {
    srv = await startInProcessServer();
    for (const ns of ['team-a', 'team-b']) await srv.request('PUT', `/v1/namespace/${ns}`, { body: {} });
    const fake = fakeNode();
    nodeId = fake.node.ID;
    await srv.request('PUT', '/v1/node/register', { body: { Node: fake.node, SecretID: fake.secret } });
    for (const id of ['web', 'web-2', 'api']) await srv.request('PUT', '/v1/jobs', { body: { Job: mockJob(id) } });
    for (let i = 0; i < 25; i++) await srv.request('PUT', '/v1/jobs', { body: { Job: mockJob(`many-${String(i).padStart(2, '0')}`, 'default', 0) } });
    await srv.request('PUT', '/v1/jobs', { body: { Job: mockJob('web-team', 'team-a') } });
    const sleeper = { ID: 'sleeper', Namespace: 'team-b', TaskGroups: [{ Name: 'workers', Count: 0, Tasks: [{ Name: 'loop', Driver: 'raw_exec', Config: { command: '/usr/bin/Sleep-Forever' } }] }] };
    await srv.request('PUT', '/v1/jobs', { body: { Job: sleeper } });
    const allocs = await until(async () => (await srv.request('GET', '/v1/job/web/allocations')).body as { ID: string; EvalID: string }[], (a) => a.length > 0, 'an allocation of web');
    allocId = allocs[0].ID;
    evalId = allocs[0].EvalID;
    tokens.defaultReader = await tokenFor('default-reader', 'namespace "default" { policy = "read" }');
    tokens.teamA = await tokenFor('team-a-reader', 'namespace "team-a" { policy = "read" }');
  });
  afterAll(async () => srv?.close());

  it('matches job IDs in the request\'s namespace', async () => {
    const res = await matches({ Prefix: 'web', Context: 'jobs' });
    expect(res.Matches).toEqual({ jobs: ['web', 'web-2'] });
    expect(res.Truncations).toEqual({ jobs: false });
    expect((await matches({ Prefix: 'web', Context: 'jobs' }, { namespace: 'team-a' })).Matches).toEqual({ jobs: ['web-team'] });
  });

  it('answers at most 20 IDs per context, and says there were more', async () => {
    const res = await matches({ Prefix: 'many-', Context: 'jobs' });
    expect(res.Matches.jobs).toEqual(Array.from({ length: 20 }, (_, i) => `many-${String(i).padStart(2, '0')}`));
    expect(res.Truncations.jobs).toBe(true);
  });

  it('answers null for a context with no match, as Nomad writes an empty list', async () => {
    expect(await matches({ Prefix: 'nothing', Context: 'jobs' })).toMatchObject({ Matches: { jobs: null }, Truncations: { jobs: false } });
  });

  it('searches every context with all, leaving out UUID contexts for a prefix that cannot start a UUID', async () => {
    const res = await matches({ Prefix: 'web', Context: 'all' });
    expect(res.Matches).toEqual({ jobs: ['web', 'web-2'], namespaces: null });
    const byId = await matches({ Prefix: allocId.slice(0, 8), Context: 'all' });
    expect(byId.Matches.allocs).toEqual([allocId]);
    expect(Object.keys(byId.Matches).sort()).toEqual(['allocs', 'deployment', 'evals', 'jobs', 'namespaces', 'nodes']);
  });

  it('matches allocations, evaluations and nodes by ID prefix, an odd digit or a dashed prefix included', async () => {
    expect((await matches({ Prefix: allocId.slice(0, 5), Context: 'allocs' })).Matches.allocs).toContain(allocId);
    expect((await matches({ Prefix: allocId.slice(0, 13), Context: 'allocs' })).Matches.allocs).toEqual([allocId]);
    expect((await matches({ Prefix: evalId, Context: 'evals' })).Matches.evals).toEqual([evalId]);
    expect((await matches({ Prefix: nodeId.slice(0, 6), Context: 'nodes' })).Matches.nodes).toEqual([nodeId]);
    expect((await matches({ Prefix: 'zz', Context: 'allocs' })).Matches).toEqual({});
  });

  it('matches namespaces by name, only those the token can reach', async () => {
    expect((await matches({ Prefix: 'team', Context: 'namespaces' })).Matches.namespaces).toEqual(['team-a', 'team-b']);
    expect((await matches({ Prefix: 'team', Context: 'namespaces' }, { namespace: 'team-a', token: tokens.teamA })).Matches.namespaces).toEqual(['team-a']);
  });

  it('refuses a named context the token may not search, and narrows all to those it may', async () => {
    expect(await search({ Prefix: 'web', Context: 'jobs' }, { token: tokens.teamA })).toMatchObject({ status: 403, body: 'Permission denied' });
    expect(await search({ Prefix: nodeId.slice(0, 2), Context: 'nodes' }, { token: tokens.defaultReader })).toMatchObject({ status: 403 });
    const all = await matches({ Prefix: allocId.slice(0, 8), Context: 'all' }, { token: tokens.defaultReader });
    expect(Object.keys(all.Matches).sort()).toEqual(['allocs', 'deployment', 'evals', 'jobs', 'namespaces']);
    expect(all.Matches.allocs).toEqual([allocId]);
  });

  it('with namespace *, lists only what the token may read in each namespace', async () => {
    expect((await matches({ Prefix: 'web', Context: 'jobs' }, { namespace: '*' })).Matches.jobs).toEqual(['web', 'web-2', 'web-team']);
    expect((await matches({ Prefix: 'web', Context: 'jobs' }, { namespace: '*', token: tokens.teamA })).Matches.jobs).toEqual(['web-team']);
    expect((await matches({ Prefix: allocId.slice(0, 8), Context: 'allocs' }, { namespace: '*', token: tokens.teamA })).Matches.allocs).toBeNull();
  });

  it('decodes the body as Nomad does: any key casing, the client\'s query options ignored', async () => {
    const res = await matches({ prefix: 'api', context: 'jobs', Region: 'global', Namespace: 'team-a', AuthToken: 'ignored', PerPage: 0, Params: null });
    expect(res.Matches).toEqual({ jobs: ['api'] });
  });

  it('answers the index of the searched tables in the header and the body, and blocks on it', async () => {
    const res = await search({ Prefix: 'web', Context: 'jobs' });
    const body = res.body as SearchAnswer;
    expect(res.headers['x-nomad-index']).toBe(String(body.Index));
    expect(body.KnownLeader).toBe(true);
    const blocked = srv.request('PUT', `/v1/search?index=${body.Index}&wait=60s`, { body: { Prefix: 'web', Context: 'jobs' } });
    await srv.request('PUT', '/v1/jobs', { body: { Job: mockJob('web-3', 'default', 0) } });
    // Each answer comes only once the jobs table moved past the index asked from (the scheduler's status
    // writes may come first); asked again from there, the search sees the new job.
    let index = body.Index;
    let answer = await blocked;
    for (let rounds = 0; ; rounds++) {
      const next = answer.body as SearchAnswer;
      expect(next.Index).toBeGreaterThan(index);
      index = next.Index;
      if (next.Matches.jobs?.includes('web-3')) break;
      expect(rounds).toBeLessThan(20);
      answer = await srv.request('PUT', `/v1/search?index=${index}&wait=60s`, { body: { Prefix: 'web', Context: 'jobs' } });
    }
    expect((answer.body as SearchAnswer).Matches.jobs).toEqual(['web', 'web-2', 'web-3']);
  });

  const fuzzy = async (body: unknown, opts: { namespace?: string; token?: string } = {}) => {
    const res = await srv.request('PUT', `/v1/search/fuzzy${opts.namespace ? `?namespace=${encodeURIComponent(opts.namespace)}` : ''}`, { body, token: opts.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { Matches: Record<string, { ID: string; Scope?: string[] }[]>; Truncations: Record<string, boolean> };
  };

  it('fuzzy: finds the text anywhere in job, group, task and command names, case aside, with their scope', async () => {
    const res = await fuzzy({ Text: 'SLEEP', Context: 'jobs' }, { namespace: 'team-b' });
    expect(res.Matches).toEqual({ jobs: [{ ID: 'sleeper', Scope: ['team-b', 'sleeper'] }], commands: [{ ID: '/usr/bin/Sleep-Forever', Scope: ['team-b', 'sleeper', 'workers', 'loop'] }] });
    expect(res.Truncations).toEqual({ jobs: false });
    expect((await fuzzy({ Text: 'ork', Context: 'all' }, { namespace: 'team-b' })).Matches.groups).toEqual([{ ID: 'workers', Scope: ['team-b', 'sleeper'] }]);
  });

  it('fuzzy: ranks by match position, then length, and finds allocations by name and namespaces', async () => {
    const res = await fuzzy({ Text: 'eb', Context: 'all' }, { namespace: 'team-a' });
    expect(res.Matches.jobs).toEqual([{ ID: 'web-team', Scope: ['team-a', 'web-team'] }]);
    const all = await fuzzy({ Text: 'team', Context: 'namespaces' });
    expect(all.Matches.namespaces).toEqual([{ ID: 'team-a' }, { ID: 'team-b' }]);
    const allocs = await fuzzy({ Text: 'web.g', Context: 'allocs' });
    expect(allocs.Matches.allocs).toEqual([{ ID: 'web.g[0]', Scope: ['default', allocId] }]);
  });

  it('fuzzy: looks at the first 20 objects of a context only, and says so', async () => {
    // default holds api, many-00..24 and web...: web lies past the first 20 jobs.
    const res = await fuzzy({ Text: 'web', Context: 'jobs' });
    expect(res.Matches.jobs).toBeUndefined();
    expect(res.Truncations.jobs).toBe(true);
  });

  it('fuzzy: with namespace *, counts only what the token may read; evaluations by ID prefix', async () => {
    const res = await fuzzy({ Text: 'eb', Context: 'all' }, { namespace: '*', token: tokens.teamA });
    expect(res.Matches.jobs).toEqual([{ ID: 'web-team', Scope: ['team-a', 'web-team'] }]);
    expect(res.Matches.nodes).toBeUndefined();
    expect((await fuzzy({ Text: evalId.slice(0, 8), Context: 'evals' })).Matches.evals).toEqual([{ ID: evalId }]);
  });

  it('fuzzy: refuses a text shorter than 2 characters, and a context the token may not search', async () => {
    expect(await srv.request('PUT', '/v1/search/fuzzy', { body: { Text: 'w', Context: 'jobs' } })).toMatchObject({ status: 400, body: expect.stringContaining('"Text"') });
    expect(await srv.request('PUT', '/v1/search/fuzzy', { body: { Text: 'web', Context: 'jobs' }, token: tokens.teamA })).toMatchObject({ status: 403 });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    expect(await search({ Prefix: 'web', Context: 'bogus' })).toMatchObject({ status: 400, body: expect.stringContaining('"Context"') });
    expect(await search({ Prefix: 'web' })).toMatchObject({ status: 400, body: expect.stringContaining('"Context"') });
    expect(await search({ Prefix: 5, Context: 'jobs' })).toMatchObject({ status: 400, body: expect.stringContaining('"Prefix"') });
    expect((await search(undefined)).status).toBe(400);
    expect((await search([1])).status).toBe(400);
    expect((await srv.request('GET', '/v1/search')).status).toBe(405);
  });

  it('refuses a token that may search nothing before reading its body', async () => {
    const none = await tokenFor('secrets-only', 'path "secret/*" { capabilities = ["read"] }');
    for (const path of ['/v1/search', '/v1/search/fuzzy']) {
      expect(await srv.request('PUT', path, { body: { Context: 'bogus' }, token: none })).toMatchObject({ status: 403, body: 'Permission denied' });
    }
  });
});
