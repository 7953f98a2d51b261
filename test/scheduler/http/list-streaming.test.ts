/**
 * Unpaged listings are streamed (chunked, a turn of the event loop between chunks) from the stub
 * tables: their bytes must equal the paged answers joined, every stub must match its full record, a
 * filter that fails on some record is still a 400, and a node's update is answered while a big listing
 * is still being written (the listing's tail shows the update).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { statusOf, until } from '../../support/wait.js';

type Rec = Record<string, unknown> & { ID: string; Namespace: string; CreateIndex: number };

const mockJob = (id: string, count: number, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 32 } }] }],
  ...extra,
});

const taskState = (state: string, events: unknown[] = []) => ({
  State: state,
  Failed: false,
  Restarts: 0,
  LastRestart: '0001-01-01T00:00:00Z',
  StartedAt: '0001-01-01T00:00:00Z',
  FinishedAt: '0001-01-01T00:00:00Z',
  Events: events,
  Paused: '',
});

describe('streamed listings', () => {
  let srv: TestServer;
  let nodes: FakeNode[];
  const c = () => srv.client();
  const nodeClient = (n: FakeNode) => new ApiClient({ address: srv.url, token: n.secret });

  async function run(job: Record<string, unknown>, namespace = 'default'): Promise<void> {
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job }, query: { namespace } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`, { query: { namespace } }), (e) => e.body.Status !== 'pending', 'evaluation done');
  }

  async function report(n: FakeNode, allocs: Array<{ ID: string; ClientStatus: string; ClientDescription?: string; events?: unknown[] }>) {
    await nodeClient(n).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
      body: {
        Allocs: allocs.map((a) => ({ ID: a.ID, ClientStatus: a.ClientStatus, ClientDescription: a.ClientDescription ?? '', TaskStates: { t: taskState(a.ClientStatus === 'running' ? 'running' : 'dead', a.events) } })),
      },
    });
  }

  /** The raw answer's bytes, to compare with JSON.stringify of the same list. */
  async function raw(path: string, query: Record<string, string | number | boolean>) {
    const answer = await c().request('GET', path, { query });
    return { status: answer.status, text: answer.body.toString('utf8'), type: answer.headers['content-type'] };
  }

  /** Every page of a paged walk, joined. */
  async function pagesJoined(path: string, query: Record<string, string | number | boolean>): Promise<Rec[]> {
    const out: Rec[] = [];
    let token: string | undefined;
    do {
      const page = await c().scheduler<Rec[]>('GET', path, { query: { ...query, per_page: 2, ...(token ? { next_token: token } : {}) } });
      out.push(...page.body);
      token = page.nextToken;
    } while (token);
    return out;
  }

  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    nodes = [fakeNode(), fakeNode()];
    for (const n of nodes) await registerFakeNode(c(), n);
    await c().scheduler('PUT', '/v1/namespace/other', { body: { Name: 'other' } });
    await run(mockJob('web', 4, { Meta: { team: 'a' } }));
    await run(mockJob('batch', 3, { Type: 'batch' }));
    await run(mockJob('elsewhere', 2), 'other');
    const allocs = (await c().scheduler<Rec[]>('GET', '/v1/allocations', { query: { namespace: '*' } })).body;
    // Some allocations run with events, one finishes, one is stopped: stubs then differ from the placement.
    for (const n of nodes) {
      const mine = allocs.filter((a) => a.NodeID === n.node.ID);
      await report(
        n,
        mine.map((a, i) => ({ ID: a.ID, ClientStatus: i === 0 && a.JobID === 'batch' ? 'complete' : 'running', events: [{ Type: 'Started', Time: 1, Message: 'started' }] })),
      );
    }
    const web = allocs.find((a) => a.JobID === 'web')!;
    const stop = await c().scheduler<{ EvalID: string }>('POST', `/v1/allocation/${web.ID}/stop`);
    // Its replacement is placed before the listings are compared, so no listing races the scheduler.
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${stop.body.EvalID}`), (e) => e.body.Status !== 'pending', 'replacement placed');
  });
  afterAll(async () => srv?.close());

  it('/v1/allocations unpaged equals the pages joined, for every query the listing takes', async () => {
    const all = (await c().scheduler<Rec[]>('GET', '/v1/allocations', { query: { namespace: '*' } })).body;
    const hexPrefix = all[0].ID.slice(0, 2);
    const queries: Record<string, string | number | boolean>[] = [
      {},
      { namespace: '*' },
      { namespace: 'other' },
      { reverse: true },
      { prefix: hexPrefix, namespace: '*' },
      { prefix: hexPrefix, reverse: true, namespace: '*' },
      { filter: 'ClientStatus == "running"' },
      { filter: 'Job.Type == "batch"', namespace: '*' },
      { filter: 'JobID != "web"', reverse: true, namespace: '*' },
      { resources: true },
      { task_states: false, namespace: '*' },
      { resources: true, filter: 'TaskGroup == "g"', namespace: '*' },
    ];
    for (const query of queries) {
      const streamed = await raw('/v1/allocations', query);
      expect(streamed.status, JSON.stringify(query)).toBe(200);
      expect(streamed.type).toBe('application/json');
      const joined = await pagesJoined('/v1/allocations', query);
      // Same bytes as the whole array serialised at once.
      expect(streamed.text, JSON.stringify(query)).toBe(JSON.stringify(joined));
    }
  });

  it('every listed allocation stub matches its full record and its job version', async () => {
    const stubs = (await c().scheduler<Rec[]>('GET', '/v1/allocations', { query: { namespace: '*', resources: true } })).body;
    expect(stubs.length).toBe(9 + 1); // the stopped allocation was replaced
    for (const stub of stubs) {
      const full = (await c().scheduler<Rec & { Job: { Type: string } }>('GET', `/v1/allocation/${stub.ID}`, { query: { namespace: stub.Namespace } })).body;
      for (const field of ['ID', 'EvalID', 'Name', 'Namespace', 'NodeID', 'NodeName', 'JobID', 'TaskGroup', 'DesiredStatus', 'ClientStatus', 'TaskStates', 'AllocatedResources', 'CreateIndex', 'ModifyIndex', 'CreateTime', 'ModifyTime']) {
        // The full record leaves out zero values, as Nomad's does.
        if (full[field] === undefined) expect([null, '', 0, false], `${stub.ID} ${field}`).toContain(stub[field]);
        else expect(stub[field], `${stub.ID} ${field}`).toEqual(full[field]);
      }
      expect(stub.JobVersion).toBe(full.JobVersion ?? 0);
      expect(stub.JobType).toBe(full.Job.Type);
    }
  });

  it("a job's, node's and evaluation's allocations equal the same stubs in creation order", async () => {
    const everything = (await c().scheduler<Rec[]>('GET', '/v1/allocations', { query: { namespace: '*' } })).body;
    const byOrder = (list: Rec[]) => [...list].sort((a, b) => a.CreateIndex - b.CreateIndex || (a.ID < b.ID ? -1 : 1));
    const web = await raw('/v1/job/web/allocations', {});
    expect(JSON.parse(web.text)).toEqual(byOrder(everything.filter((a) => a.JobID === 'web')));
    const onNode = await raw(`/v1/node/${nodes[0].node.ID}/allocations`, {});
    expect(JSON.parse(onNode.text)).toEqual(byOrder(everything.filter((a) => a.NodeID === nodes[0].node.ID)));
    const evalId = everything[0].EvalID as string;
    const ofEval = await raw(`/v1/evaluation/${evalId}/allocations`, {});
    expect(JSON.parse(ofEval.text)).toEqual(byOrder(everything.filter((a) => a.EvalID === evalId)));
  });

  it('/v1/jobs unpaged equals the pages joined, and each stub matches its full job', async () => {
    const queries: Record<string, string | number | boolean>[] = [{}, { namespace: '*' }, { prefix: 'w' }, { meta: true }, { filter: 'Type == "batch"', namespace: '*' }, { filter: 'Meta.team == "a"', meta: true }];
    for (const query of queries) {
      const streamed = await raw('/v1/jobs', query);
      expect(streamed.text, JSON.stringify(query)).toBe(JSON.stringify(await pagesJoined('/v1/jobs', query)));
    }
    const stubs = JSON.parse((await raw('/v1/jobs', { namespace: '*', meta: true })).text) as Rec[];
    expect(stubs.map((j) => j.ID).sort()).toEqual(['batch', 'elsewhere', 'web']);
    for (const stub of stubs) {
      const full = (await c().scheduler<Rec>('GET', `/v1/job/${stub.ID}`, { query: { namespace: stub.Namespace } })).body;
      for (const field of ['ID', 'ParentID', 'Name', 'Namespace', 'Datacenters', 'NodePool', 'Type', 'Priority', 'Stop', 'Status', 'StatusDescription', 'CreateIndex', 'ModifyIndex', 'JobModifyIndex', 'SubmitTime', 'Meta']) {
        if (full[field] === undefined) expect([null, '', 0, false], `${stub.ID} ${field}`).toContain(stub[field]);
        else expect(stub[field], `${stub.ID} ${field}`).toEqual(full[field]);
      }
      const summary = (await c().scheduler<Rec>('GET', `/v1/job/${stub.ID}/summary`, { query: { namespace: stub.Namespace } })).body;
      expect(stub.JobSummary).toEqual(summary);
    }
  });

  it('evaluations, deployments and nodes unpaged equal the pages joined', async () => {
    for (const [path, query] of [
      ['/v1/evaluations', { namespace: '*' }],
      ['/v1/evaluations', { reverse: true }],
      ['/v1/deployments', { namespace: '*' }],
      ['/v1/nodes', {}],
      ['/v1/nodes', { resources: true }],
    ] as const) {
      const streamed = await raw(path, query);
      expect(streamed.text, path).toBe(JSON.stringify(await pagesJoined(path, query)));
    }
  });

  it('a filter that fails on a record, a bad prefix or a bad next_token is a 400 before anything is streamed', async () => {
    // Events is a list: selecting a key of it fails, on the allocations that have events.
    const failing = await statusOf(c().scheduler('GET', '/v1/allocations', { query: { filter: 'TaskStates.t.Events.foo == "x"' } }));
    expect(failing.code).toBe(400);
    expect(failing.message).toMatch(/cannot select key "foo" of a list/);
    expect((await statusOf(c().scheduler('GET', '/v1/jobs', { query: { filter: 'TaskGroups.foo == "x"' } }))).code).toBe(400);
    expect((await statusOf(c().scheduler('GET', '/v1/allocations', { query: { prefix: 'abc' } }))).code).toBe(400);
    expect((await statusOf(c().scheduler('GET', '/v1/allocations', { query: { next_token: 'x.y' } }))).code).toBe(400);
  });

  it("a node's update is answered while a big listing is still being written, and the listing's tail shows it", async () => {
    await run(mockJob('big', 64));
    const big = (await c().scheduler<Rec[]>('GET', '/v1/job/big/allocations')).body;
    // 64 allocations with 1 MiB descriptions: far more than the sockets buffer while the reader waits.
    const description = 'x'.repeat(1024 * 1024);
    for (const n of nodes) {
      const mine = big.filter((a) => a.NodeID === n.node.ID);
      for (let i = 0; i < mine.length; i += 8) await report(n, mine.slice(i, i + 8).map((a) => ({ ID: a.ID, ClientStatus: 'running', ClientDescription: description })));
    }
    const last = big[big.length - 1];
    const owner = nodes.find((n) => n.node.ID === last.NodeID)!;

    const listings: [string, Record<string, string>][] = [
      ['/v1/job/big/allocations', {}],
      ['/v1/allocations', {}],
      ['/v1/allocations', { filter: 'JobID == "big"' }],
    ];
    for (const [path, query] of listings) {
      const what = `${path} ${JSON.stringify(query)}`;
      const events: string[] = [];
      const res = await c().open('GET', path, { query });
      const chunks: Buffer[] = [];
      const ended = new Promise<void>((resolve) => res.on('end', resolve));
      await new Promise<void>((resolve) => {
        res.once('data', (chunk: Buffer) => {
          chunks.push(chunk);
          // Stop reading: the server's writes back up once the socket buffers are full.
          res.pause();
          events.push('listing started');
          resolve();
        });
      });
      await report(owner, [{ ID: last.ID, ClientStatus: 'running', ClientDescription: `updated during ${what}` }]);
      events.push('update answered');
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.resume();
      await ended;
      events.push('listing finished');
      expect(events).toEqual(['listing started', 'update answered', 'listing finished']);
      const listed = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rec[]).filter((a) => a.JobID === 'big');
      expect(listed.map((a) => a.ID), what).toEqual(big.map((a) => a.ID));
      // The listing reached the last allocation only after the update was committed.
      expect(listed[listed.length - 1].ClientDescription, what).toBe(`updated during ${what}`);
      expect(listed[0].ClientDescription, what).toBe(description);
    }
  });
});
