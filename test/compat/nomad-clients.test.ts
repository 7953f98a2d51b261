/**
 * The scheduler API as a Nomad client library sees it: nomad-client (npm, a devDependency), unmodified,
 * against the built bin/svc started with -dev on port 0 with its own node running the tasks. Where the
 * library has a working module method it is used; otherwise its own HTTP client, created by its factory
 * with the token header it sends, makes the call: for agent members and health, regions, search, ACL
 * token self and the deployments list, which it has no method for, and for paging and agent/self, where
 * its methods would not work against Nomad either (they send `per-page`/`next-token`, read
 * `X-Nomad-NextToken` with its capitals from lower-cased headers, and read agent config keys in lower case).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/server.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';
import { nomadClient, nomadHttp, type HttpClient, type Json, type NomadClient } from './nomad-client.js';

let srv: SpawnedServer;
let home: string;
let nomad: NomadClient;
let http: HttpClient;
let nodeId: string;

const MS = 1_000_000;

/** A service job of one raw_exec task that sleeps, so its allocations run on the server's own node. */
function job(id: string, meta: Record<string, string> = {}) {
  return {
    ID: id,
    Name: id,
    Type: 'service',
    Datacenters: ['dc1'],
    Meta: meta,
    TaskGroups: [
      {
        Name: 'web',
        Count: 1,
        Update: { MaxParallel: 1, MinHealthyTime: 100 * MS, HealthyDeadline: 10_000 * MS, ProgressDeadline: 20_000 * MS },
        RestartPolicy: { Attempts: 0, Mode: 'fail', Interval: 60_000 * MS, Delay: 100 * MS },
        Tasks: [
          {
            Name: 'server',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', 'exec sleep 300'] },
            KillTimeout: 1000 * MS,
            Resources: { CPU: 20, MemoryMB: 16 },
          },
        ],
      },
    ],
  };
}

function batch(id: string) {
  return { ID: id, Name: id, Type: 'batch', Datacenters: ['no-such-dc'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] };
}

beforeAll(async () => {
  home = await makeTempDir('svc-compat-nomad-');
  srv = await spawnServer(['-dev', '-port=0'], { HOME: home });
  nomad = nomadClient(srv.url, srv.rootToken);
  http = nomadHttp(srv.url, srv.rootToken);
  const nodes = await until(() => nomad.nodes.list(), (r) => r.data.length === 1 && r.data[0].Status === 'ready', 'the dev node to be ready');
  nodeId = nodes.data[0].ID;
  await nomad.jobs.create(job('web'));
  await until(() => nomad.jobs.allocations('web'), (a) => a.some((x) => x.ClientStatus === 'running'), 'web to run');
}, 60_000);

afterAll(async () => {
  await stopServer(srv);
  await rm(home, { recursive: true, force: true });
});

describe('nomad-client: jobs', () => {
  it('registers a job and answers Nomad’s register response', async () => {
    const res = await nomad.jobs.create(batch('reg-check'));
    expect(res).toMatchObject({ EvalID: expect.stringMatching(/^[0-9a-f-]{36}$/), EvalCreateIndex: expect.any(Number), JobModifyIndex: expect.any(Number) });
    expect(res.JobModifyIndex).toBeGreaterThan(0);
  });

  it('reads a job, and lists it as a stub with its summary', async () => {
    const read = await nomad.jobs.get('web');
    expect(read).toMatchObject({ ID: 'web', Name: 'web', Type: 'service', Namespace: 'default', Region: 'global', Datacenters: ['dc1'] });
    expect(read.TaskGroups[0]).toMatchObject({ Name: 'web', Count: 1, Tasks: [expect.objectContaining({ Name: 'server', Driver: 'raw_exec' })] });
    const list = await nomad.jobs.list();
    const stub = list.data.find((j) => j.ID === 'web');
    expect(stub).toMatchObject({ ID: 'web', Name: 'web', Type: 'service', Namespace: 'default', Status: 'running', JobSummary: expect.objectContaining({ JobID: 'web' }) });
    expect(stub).toHaveProperty('JobModifyIndex');
    expect(stub).toHaveProperty('SubmitTime');
  });

  it('lists job versions newest first after an update', async () => {
    await nomad.jobs.update(job('versioned', { rev: 'one' }));
    await nomad.jobs.update(job('versioned', { rev: 'two' }));
    const versions = await nomad.jobs.versions('versioned');
    expect(versions.map((v) => [v.Version, v.Meta?.rev])).toEqual([
      [1, 'two'],
      [0, 'one'],
    ]);
  });

  it('lists a job’s allocations and evaluations, and reads one allocation', async () => {
    const allocs = await nomad.jobs.allocations('web');
    const alloc = allocs.find((a) => a.ClientStatus === 'running')!;
    expect(alloc).toMatchObject({ JobID: 'web', TaskGroup: 'web', Name: 'web.web[0]', NodeID: nodeId, DesiredStatus: 'run', Namespace: 'default' });
    expect(alloc.TaskStates.server).toMatchObject({ State: 'running', Failed: false });
    const full = await nomad.allocations.get(alloc.ID);
    expect(full).toMatchObject({ ID: alloc.ID, JobID: 'web', ClientStatus: 'running', Job: expect.objectContaining({ ID: 'web' }) });
    expect(full.TaskStates.server.Events.map((e: Json) => e.Type)).toContain('Started');

    const evals = await nomad.jobs.evaluations('web');
    expect(evals.length).toBeGreaterThan(0);
    expect(evals.find((e) => e.TriggeredBy === 'job-register')).toMatchObject({ JobID: 'web', Type: 'service', Status: 'complete', Namespace: 'default' });
    const listed = await nomad.allocations.list();
    expect(listed.data.map((a) => a.ID)).toContain(alloc.ID);
  });

  it('lists a job’s deployments, and all deployments', async () => {
    const deployments = await until(() => nomad.jobs.deployments('web'), (d) => d[0]?.Status === 'successful', 'the deployment of web to succeed');
    expect(deployments[0]).toMatchObject({ JobID: 'web', JobVersion: 0, Namespace: 'default', TaskGroups: { web: expect.objectContaining({ DesiredTotal: 1 }) } });
    const all = await http.get<Array<{ ID: string }>>('/v1/deployments');
    expect(all.data.map((d) => d.ID)).toContain(deployments[0].ID);
  });

  it('reads a job summary, plans a change with its diff, and stops and purges a job', async () => {
    const summary = await nomad.jobs.summary('web');
    expect(summary).toMatchObject({ JobID: 'web', Namespace: 'default', Summary: { web: expect.objectContaining({ Running: 1, Failed: 0 }) } });

    const planned = await nomad.jobs.plan({ ...job('web'), Meta: { planned: 'yes' } });
    expect(planned).toMatchObject({ JobModifyIndex: expect.any(Number), Diff: expect.objectContaining({ ID: 'web', Type: 'Edited' }), Annotations: expect.objectContaining({ DesiredTGUpdates: expect.any(Object) }) });
    // A plan is a dry run: the job stays as registered.
    expect((await nomad.jobs.get('web')).Meta?.planned).toBeUndefined();

    await nomad.jobs.create(batch('doomed'));
    const stopped = await nomad.jobs.stop('doomed', true);
    expect(stopped).toMatchObject({ EvalID: expect.any(String), JobModifyIndex: expect.any(Number) });
    await expect(nomad.jobs.get('doomed')).rejects.toThrow(/HTTP Error 404/);
  });

  it('answers a blocking query on a job once it changes, with X-Nomad-Index', async () => {
    await nomad.jobs.create(batch('blocking'));
    const first = await http.get<{ JobModifyIndex: number }>('/v1/job/blocking');
    const index = Number(first.headers['x-nomad-index']);
    expect(index).toBeGreaterThanOrEqual(first.data.JobModifyIndex);
    expect(first.headers['x-nomad-knownleader']).toBe('true');
    let settled = false;
    // The query must still be held open when the job changes; a server that ignores `index` answers at once.
    const blocked = nomad.jobs.get('blocking', { index, wait: '20s' }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    const update = await nomad.jobs.update({ ...batch('blocking'), Meta: { changed: 'yes' } });
    const answer = await blocked;
    expect(answer).toMatchObject({ Version: 1, Meta: { changed: 'yes' }, JobModifyIndex: update.JobModifyIndex });
  });

  it('pages the job list with per_page and X-Nomad-NextToken', async () => {
    for (const id of ['page-a', 'page-b', 'page-c']) await nomad.jobs.create(batch(id));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await http.get<Array<{ ID: string }>>('/v1/jobs', { params: { prefix: 'page-', per_page: 2, ...(token ? { next_token: token } : {}) } });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((j) => j.ID));
      token = page.headers['x-nomad-nexttoken'];
      pages++;
    } while (token);
    expect(seen).toEqual(['page-a', 'page-b', 'page-c']);
    expect(pages).toBe(2);
  });
});

describe('nomad-client: nodes, agent, cluster', () => {
  it('lists nodes, reads one, and lists its allocations', async () => {
    const nodes = await nomad.nodes.list();
    expect(nodes.data[0]).toMatchObject({ ID: nodeId, Datacenter: 'dc1', Status: 'ready', SchedulingEligibility: 'eligible', NodePool: 'default', Drain: false });
    const node = await nomad.nodes.get(nodeId);
    expect(node).toMatchObject({ ID: nodeId, Datacenter: 'dc1', Status: 'ready', Attributes: expect.objectContaining({ 'kernel.name': 'linux' }) });
    const allocs = await nomad.nodes.allocations(nodeId);
    expect(allocs.map((a) => a.JobID)).toContain('web');
  });

  it('passes the library’s health check: a leader, one peer, one client', async () => {
    expect(await nomad.ping()).toBe(true);
    expect(await nomad.healthCheck()).toEqual({ healthy: true, leader: true, peers: 1, servers: 1, clients: 1, issues: [] });
  });

  it('answers agent/self with its config and member, as Nomad does', async () => {
    const self = await http.get<{ config: Record<string, unknown>; member: Record<string, unknown>; stats: Record<string, Record<string, string>> }>('/v1/agent/self');
    expect(self.data.config).toMatchObject({ Region: 'global', Datacenter: 'dc1', Version: expect.objectContaining({ Version: expect.any(String) }) });
    expect(self.data.member).toMatchObject({ Name: expect.any(String), Status: 'alive', Tags: expect.objectContaining({ region: 'global', dc: 'dc1', role: 'nomad' }) });
    expect(self.data.stats.nomad).toMatchObject({ server: 'true', leader: 'true' });
  });

  it('answers agent/members, agent/health and regions', async () => {
    const members = await http.get<{ ServerRegion: string; ServerDC: string; Members: Array<Record<string, unknown>> }>('/v1/agent/members');
    expect(members.data).toMatchObject({ ServerRegion: 'global', ServerDC: 'dc1' });
    expect(members.data.Members).toEqual([expect.objectContaining({ Status: 'alive', Tags: expect.objectContaining({ region: 'global', dc: 'dc1' }) })]);
    const health = await http.get('/v1/agent/health');
    expect(health.data).toEqual({ server: { ok: true, message: 'ok' }, client: { ok: true, message: 'ok' } });
    expect((await http.get('/v1/regions')).data).toEqual(['global']);
  });

  it('searches by prefix in one context and in all', async () => {
    const jobs = await http.post<{ Matches: Record<string, string[]>; Truncations: Record<string, boolean> }>('/v1/search', { Prefix: 'we', Context: 'jobs' });
    // Nomad's search answer embeds its query metadata (Index, KnownLeader, ...) beside the matches.
    expect(jobs.data).toMatchObject({ Matches: { jobs: ['web'] }, Truncations: { jobs: false }, Index: expect.any(Number), KnownLeader: true });
    const all = await http.post<{ Matches: Record<string, string[]> }>('/v1/search', { Prefix: nodeId.slice(0, 4), Context: 'all' });
    expect(all.data.Matches.nodes).toEqual([nodeId]);
  });

  it('answers acl/token/self for the management token', async () => {
    const self = await http.get<Record<string, unknown>>('/v1/acl/token/self');
    expect(self.data).toMatchObject({ AccessorID: expect.any(String), SecretID: srv.rootToken, Type: 'management' });
  });

  it('writes, lists, reads and deletes a namespace', async () => {
    await nomad.namespaces.update({ Name: 'team-nc', Description: 'from nomad-client' });
    expect((await nomad.namespaces.list()).data.map((n) => n.Name)).toEqual(['default', 'team-nc']);
    expect(await nomad.namespaces.get('team-nc')).toMatchObject({ Name: 'team-nc', Description: 'from nomad-client' });
    await nomad.namespaces.delete('team-nc');
    await expect(nomad.namespaces.get('team-nc')).rejects.toThrow(/HTTP Error 404/);
  });

  it('surfaces Nomad’s status codes through the library’s errors', async () => {
    await expect(nomad.jobs.get('no-such-job')).rejects.toThrow(/HTTP Error 404/);
    const anonymous = nomadHttp(srv.url);
    await expect(anonymous.get('/v1/jobs')).rejects.toThrow(/HTTP Error 403/);
  });
});
