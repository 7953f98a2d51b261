/**
 * A job's versions on a real server: revert by number or by tag, stability, version tags (unique per
 * job, kept past the six-version pruning, removed), diffs against a tag, and a forced reschedule past
 * the reschedule limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { statusOf, until } from '../../support/wait.js';

interface Version {
  Version: number;
  Stable: boolean;
  JobModifyIndex: number;
  VersionTag: { Name: string; Description: string; TaggedTime: number } | null;
  Meta: Record<string, string> | null;
}

const job = (id: string, meta: string) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  Meta: { rev: meta },
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }] }],
});

describe('job versions: revert, stable, tags', () => {
  let srv: TestServer;
  let nodes: FakeNode[];
  const c = () => srv.client();
  const versions = async (id: string) => (await c().scheduler<{ Versions: Version[] }>('GET', `/v1/job/${id}/versions`)).body.Versions;
  const register = (id: string, meta: string, source?: string) =>
    c().scheduler<{ EvalID: string; JobModifyIndex: number }>('POST', '/v1/jobs', { body: { Job: job(id, meta), ...(source ? { Submission: { Source: source, Format: 'hcl2' } } : {}) } });
  const tag = (id: string, name: string, body: Record<string, unknown> = {}) =>
    c().scheduler<{ Name: string; Description: string; TaggedTime: number; Index: number }>('POST', `/v1/job/${id}/versions/${name}/tag`, { body });
  const revert = (id: string, body: Record<string, unknown>) =>
    c().scheduler<{ EvalID: string; JobModifyIndex: number; Index: number }>('POST', `/v1/job/${id}/revert`, { body: { JobID: id, ...body } });

  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    nodes = [fakeNode(), fakeNode()];
    for (const n of nodes) await registerFakeNode(c(), n);
    for (const rev of ['a', 'b', 'c']) await register('app', rev, `job "app" { meta { rev = "${rev}" } }`);
  });
  afterAll(async () => srv?.close());

  it('reverts to a version number: a new version with the old spec and its source', async () => {
    const resp = await revert('app', { JobVersion: 0 });
    expect(resp.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const [latest] = await versions('app');
    expect(latest.Version).toBe(3);
    expect(latest.Meta).toEqual({ rev: 'a' });
    expect(latest.JobModifyIndex).toBe(resp.body.JobModifyIndex);
    const source = (await c().scheduler<{ Source: string; Version: number }>('GET', '/v1/job/app/submission', { query: { version: '3' } })).body;
    expect(source).toMatchObject({ Source: 'job "app" { meta { rev = "a" } }', Version: 3 });
  });

  it('refuses the current version, an unknown version, a missing or mismatched JobID, and a stale EnforcePriorVersion', async () => {
    expect(await statusOf(revert('app', { JobVersion: 3 }))).toEqual({ code: 400, message: "can't revert to current version" });
    expect((await statusOf(revert('app', { JobVersion: 42 }))).code).toBe(404);
    expect(await statusOf(c().scheduler('POST', '/v1/job/app/revert', { body: { JobVersion: 1 } }))).toEqual({ code: 400, message: 'missing job ID for revert' });
    expect((await statusOf(c().scheduler('POST', '/v1/job/app/revert', { body: { JobID: 'other', JobVersion: 1 } }))).code).toBe(400);
    expect((await statusOf(revert('nope', { JobVersion: 1 }))).code).toBe(404);
    const stale = await statusOf(revert('app', { JobVersion: 1, EnforcePriorVersion: 2 }));
    expect(stale).toEqual({ code: 409, message: 'Current job has version 3; enforcing version 2' });
    expect((await versions('app'))[0].Version).toBe(3);
    // The service-mesh and secrets tokens are taken for policy checks, which have nothing to check here.
    await revert('app', { JobVersion: 1, EnforcePriorVersion: 3, MeshToken: 'mesh', SecretsToken: 'secrets' });
    expect((await versions('app'))[0]).toMatchObject({ Version: 4, Meta: { rev: 'b' } });
  });

  it('tags the latest version by default, or the one named, and shows the tag on it', async () => {
    const latest = await tag('app', 'golden', { Description: 'the good one' });
    // Nomad's JobTagResponse: a QueryMeta the write leaves at its zero values, the index aside.
    expect(latest.body).toEqual({ Name: 'golden', Description: 'the good one', TaggedTime: latest.body.TaggedTime, Index: latest.index, LastContact: 0, KnownLeader: false, NextToken: '' });
    expect(latest.body.TaggedTime).toBeGreaterThan(Date.now() * 1e6 - 60e9);
    expect((await versions('app'))[0].VersionTag).toMatchObject({ Name: 'golden', Description: 'the good one' });
    expect((await c().scheduler<Version>('GET', '/v1/job/app')).body.VersionTag?.Name).toBe('golden');
    await tag('app', 'first', { Version: 0 });
    expect((await versions('app')).find((v) => v.Version === 0)?.VersionTag?.Name).toBe('first');
  });

  it('tag names are unique per job; a description is at most 1000 characters; an unknown version is 404', async () => {
    const taken = await statusOf(tag('app', 'golden', { Version: 1 }));
    expect(taken).toEqual({ code: 409, message: 'tag "golden" already exists on a different version of job "app"' });
    expect((await statusOf(tag('app', 'long', { Description: 'x'.repeat(1001) }))).code).toBe(400);
    expect((await statusOf(tag('app', 'ghost', { Version: 99 }))).code).toBe(404);
    // Another job may use the same name.
    await register('other', 'a');
    expect((await tag('other', 'golden')).body.Name).toBe('golden');
  });

  it('reverts to a tagged version; a tag and a version number together are refused', async () => {
    const resp = await revert('app', { TaggedVersion: 'first' });
    expect(resp.body.EvalID).toBeTruthy();
    const [latest] = await versions('app');
    expect(latest).toMatchObject({ Version: 5, Meta: { rev: 'a' }, VersionTag: null });
    expect(await statusOf(revert('app', { TaggedVersion: 'first', JobVersion: 2 }))).toEqual({ code: 400, message: 'use one of JobVersion or TaggedVersion, not both' });
    expect((await statusOf(revert('app', { TaggedVersion: 'missing' }))).code).toBe(404);
  });

  it('answers Diffs only when asked: each version against its predecessor, or every version against diff_version', async () => {
    const read = async (query: Record<string, string | number | boolean>) => (await c().scheduler<{ Versions: Version[]; Diffs: Array<{ Type: string }> | null }>('GET', '/v1/job/app/versions', { query })).body;
    /** The "old->new" values of every field a diff changes. */
    const changes = (diff: unknown): string[] => {
      const out: string[] = [];
      const walk = (x: unknown): void => {
        if (Array.isArray(x)) x.forEach(walk);
        else if (x !== null && typeof x === 'object') {
          const o = x as Record<string, unknown>;
          if (typeof o.Old === 'string' && typeof o.New === 'string') out.push(`${o.Old}->${o.New}`);
          Object.values(o).forEach(walk);
        }
      };
      walk(diff);
      return out;
    };
    expect((await read({})).Diffs).toBeNull();
    // Versions 0..5 carry rev a, b, c, a, b, a.
    const consecutive = await read({ diffs: true });
    expect(consecutive.Diffs).toHaveLength(consecutive.Versions.length - 1);
    const diffOf = (body: typeof consecutive, version: number) => body.Diffs![body.Versions.findIndex((v) => v.Version === version)];
    expect(changes(diffOf(consecutive, 4))).toEqual(['a->b']);
    expect(changes(diffOf(consecutive, 3))).toEqual(['c->a']);
    const against = await read({ diffs: true, diff_version: 0 });
    expect(against.Diffs).toHaveLength(against.Versions.length);
    expect(diffOf(against, 0).Type).toBe('None');
    expect(changes(diffOf(against, 4))).toEqual(['a->b']);
    expect(changes(diffOf(against, 2))).toEqual(['a->c']);
  });

  it('diffs every version against a tagged one', async () => {
    const body = (await c().scheduler<{ Versions: Version[]; Diffs: Array<{ Type: string }> }>('GET', '/v1/job/app/versions', { query: { diff_tag: 'first' } })).body;
    expect(body.Diffs.length).toBe(body.Versions.length);
    const byVersion = new Map(body.Versions.map((v, i) => [v.Version, body.Diffs[i].Type]));
    expect(byVersion.get(0)).toBe('None');
    expect(byVersion.get(4)).toBe('Edited');
  });

  it('a tagged version survives the six-version pruning; untagged old ones do not', async () => {
    for (const rev of ['d', 'e', 'f', 'g', 'h', 'i', 'j']) await register('app', rev);
    const kept = (await versions('app')).map((v) => v.Version);
    expect(kept).toContain(0);
    expect(kept).not.toContain(1);
    expect(kept.filter((v) => v !== 0 && v !== 4).length).toBe(6);
  });

  it('removes a tag: the version keeps no tag and the name is free again', async () => {
    const removed = await c().scheduler<{ Name: string; Index: number }>('DELETE', '/v1/job/app/versions/first/tag');
    expect(removed.body).toMatchObject({ Name: '', Description: '', TaggedTime: 0 });
    expect((await versions('app')).find((v) => v.Version === 0)?.VersionTag ?? null).toBeNull();
    expect((await statusOf(c().scheduler('DELETE', '/v1/job/app/versions/first/tag'))).code).toBe(404);
    expect((await statusOf(c().scheduler('DELETE', '/v1/job/nope/versions/first/tag'))).code).toBe(404);
  });

  it('stable needs JobID, and marks the version named', async () => {
    const [{ Version: latest }] = await versions('app');
    expect(await statusOf(c().scheduler('POST', '/v1/job/app/stable', { body: { JobVersion: latest, Stable: true } }))).toEqual({ code: 400, message: 'missing job ID for setting job stability' });
    expect((await statusOf(c().scheduler('POST', '/v1/job/app/stable', { body: { JobID: 'other', JobVersion: latest, Stable: true } }))).code).toBe(400);
    const resp = await c().scheduler<Record<string, unknown>>('POST', '/v1/job/app/stable', { body: { JobID: 'app', JobVersion: latest, Stable: true } });
    expect(Object.keys(resp.body)).toEqual(['Index']);
    expect((await versions('app'))[0]).toMatchObject({ Version: latest, Stable: true });
    expect((await statusOf(c().scheduler('POST', '/v1/job/app/stable', { body: { JobID: 'app', JobVersion: 1, Stable: true } }))).code).toBe(404);
    // Stable defaults to false.
    await c().scheduler('POST', '/v1/job/app/stable', { body: { JobID: 'app', JobVersion: latest } });
    expect((await versions('app'))[0]).toMatchObject({ Version: latest, Stable: false });
  });

  it('revert, stable, evaluate and tags need submit-job', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return srv.client(String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token));
    };
    const reader = await tokenWith('versions-reader', ['read-job', 'list-jobs']);
    const submitter = await tokenWith('versions-submitter', ['submit-job']);
    const [{ Version: latest }, { Version: previous }] = await versions('app');
    const calls: Array<[string, string, Record<string, unknown> | undefined]> = [
      ['POST', '/v1/job/app/versions/acl-tag/tag', {}],
      ['DELETE', '/v1/job/app/versions/acl-tag/tag', undefined],
      ['POST', '/v1/job/app/stable', { JobID: 'app', JobVersion: latest, Stable: true }],
      ['POST', '/v1/job/app/evaluate', { JobID: 'app' }],
      ['POST', '/v1/job/app/revert', { JobID: 'app', JobVersion: previous }],
    ];
    for (const [method, path, body] of calls) {
      const as = async (client: ApiClient) => (await statusOf(client.scheduler(method, path, body === undefined ? {} : { body }))).code;
      expect({ method, path, reader: await as(reader), submitter: await as(submitter) }).toEqual({ method, path, reader: 403, submitter: 200 });
    }
  });

  it('ForceReschedule replaces a failed allocation even when its policy allows no more attempts', async () => {
    const noRetry = {
      ...job('once', 'x'),
      TaskGroups: [{ ...job('once', 'x').TaskGroups[0], ReschedulePolicy: { Attempts: 0, Unlimited: false, Interval: 0, Delay: 5_000_000_000, DelayFunction: 'constant' } }],
    };
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: noRetry } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`), (r) => r.body.Status !== 'pending', 'the evaluation');
    const [first] = (await c().scheduler<Array<{ ID: string; NodeID: string }>>('GET', '/v1/job/once/allocations')).body;
    const node = nodes.find((n) => n.node.ID === first.NodeID)!;
    await new ApiClient({ address: srv.url, token: node.secret }).scheduler('POST', `/v1/node/${node.node.ID}/client-allocations`, {
      body: { Allocs: [{ ID: first.ID, ClientStatus: 'failed', ClientDescription: '', TaskStates: {} }] },
    });
    // Its own evaluation leaves it failed: the policy allows no attempt.
    await until(() => c().scheduler<Array<{ TriggeredBy: string; Status: string }>>('GET', '/v1/job/once/evaluations'), (r) => r.body.some((e) => e.TriggeredBy === 'alloc-failure' && e.Status === 'complete'), 'the failure evaluated');
    expect((await c().scheduler<unknown[]>('GET', '/v1/job/once/allocations')).body.length).toBe(1);

    const forced = await c().scheduler<{ EvalID: string }>('POST', '/v1/job/once/evaluate', { body: { JobID: 'once', EvalOptions: { ForceReschedule: true } } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${forced.body.EvalID}`), (r) => r.body.Status !== 'pending', 'the forced evaluation');
    const allocs = (await c().scheduler<Array<{ ID: string }>>('GET', '/v1/job/once/allocations')).body;
    expect(allocs.length).toBe(2);
    const replacement = allocs.find((a) => a.ID !== first.ID)!;
    expect((await c().scheduler<{ PreviousAllocation: string }>('GET', `/v1/allocation/${replacement.ID}`)).body.PreviousAllocation).toBe(first.ID);
  });
});
