/**
 * Bodies nested deeper than the JSON depth limit are refused with 400 naming the limit on both sides,
 * before any handler walks them (a body ten thousand deep answered 500 "Maximum call stack size
 * exceeded"), and nothing is written; a body at the limit is served as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/shared/json-depth.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { until } from '../support/wait.js';

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number, inner = '1') => `${'{"a":'.repeat(n)}${inner}${'}'.repeat(n)}`;

describe('the JSON depth limit', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ s: '['.repeat(1000), t: 'a\\"[[[' }))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ 'é🙂': [[['x']]] })), 4)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ 'é🙂': [[['x']]] })), 3)).toBe(true);
  });

  let ts: TestServer;
  let allocId: string;
  beforeAll(async () => {
    ts = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    await ts.client().secrets('POST', 'sys/mounts/secret', { body: { type: 'kv-v2' } });
    await registerFakeNode(ts.client(), fakeNode());
    const job = { ID: 'deep', Type: 'service', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }] };
    await ts.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
    allocId = await until(async () => (await ts.client().scheduler<Array<{ ID: string }>>('GET', '/v1/job/deep/allocations')).body[0]?.ID, (id) => id !== undefined, 'the allocation');
  });
  afterAll(async () => ts?.close());

  it('refuses a deeper body with 400 naming the limit on both sides, and writes nothing', async () => {
    const c = ts.client();
    const before = ts.server.services.store.index();
    for (const body of [arrays(10_000), objects(10_000)]) {
      const pause = await c.request('POST', `/v1/client/allocation/${allocId}/pause`, { body });
      expect(pause.status).toBe(400);
      expect(pause.body.toString()).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      const job = await c.request('POST', '/v1/jobs', { body: `{"Job":${objects(5_000)}}` });
      expect(job.status).toBe(400);
      const kv = await c.request('PUT', '/v1/secret/data/deep', { body: `{"data":${body}}` });
      expect(kv.status).toBe(400);
      expect((JSON.parse(kv.body.toString()) as { errors: string[] }).errors[0]).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    }
    expect(ts.server.services.store.index()).toBe(before);
  });

  it('serves a body at the limit', async () => {
    const c = ts.client();
    // The envelope {"data":{"v":…}} takes two levels.
    const value = objects(MAX_JSON_DEPTH - 3);
    expect((await c.request('PUT', '/v1/secret/data/deep', { body: `{"data":{"v":${value}}}` })).status).toBe(200);
    const read = await c.secrets('GET', 'secret/data/deep');
    expect(JSON.stringify((read?.data as { data: { v: unknown } }).data.v)).toBe(value);
  });
});
