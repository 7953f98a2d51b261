/**
 * The event stream on a cluster of two servers on one PostgreSQL database: the follower's stream carries
 * the leader's writes (a registration and its placement), named as on the leader, since the kind of each
 * write travels with it through the store's log.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream, type EventFrame } from '../../../src/api/events.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { createDatabase, startPostgres, type Postgres } from '../../support/postgres.js';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { until } from '../../support/wait.js';

let postgres: Postgres;
let work: string;
let leader: TestServer;
let follower: TestServer;

beforeAll(async () => {
  postgres = await startPostgres();
  const storageUrl = await createDatabase(postgres.url, 'event_stream');
  work = await makeTempDir('svc-events-');
  const dirs = [path.join(work, 'a'), path.join(work, 'b')];
  leader = await startTestServer({ dataDir: dirs[0], storageUrl, client: false });
  // The servers of a cluster share the keyring, as they share the state it seals.
  await mkdir(dirs[1], { recursive: true, mode: 0o700 });
  await copyFile(path.join(dirs[0], 'keyring.json'), path.join(dirs[1], 'keyring.json'));
  follower = await startTestServer({ dataDir: dirs[1], storageUrl, client: false });
}, 120_000);

afterAll(async () => {
  await follower?.close();
  await leader?.close();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
}, 180_000);

function collect(client: ApiClient, topics: string[]) {
  const frames: EventFrame[] = [];
  const abort = new AbortController();
  const done = (async () => {
    for await (const frame of await eventStream(client, { topics, signal: abort.signal })) frames.push(frame);
  })();
  return {
    frames,
    lines: () => frames.flatMap((f) => f.Events.map((e) => `${e.Index} ${e.Topic} ${e.Type} ${e.Key}`)),
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
}

describe('event stream on a PostgreSQL cluster', () => {
  it("a follower's stream carries the leader's writes, as the leader's does", async () => {
    expect(leader.server.services.leadership.isLeader()).toBe(true);
    expect(follower.server.services.leadership.isLeader()).toBe(false);
    const topics = ['Job:web', 'Allocation:web', 'Node'];
    const onFollower = collect(follower.client(leader.rootToken), topics);
    const onLeader = collect(leader.client(), topics);
    const n = fakeNode();
    await registerFakeNode(leader.client(), n);
    await leader.client().scheduler('PUT', `/v1/node/${n.node.ID}/heartbeat`, {}).catch(() => undefined);
    await leader.client().scheduler('POST', '/v1/jobs', {
      body: { Job: { ID: 'web', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 2, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] } },
    });
    const placed = (lines: string[]) => lines.filter((l) => / Allocation PlanResult /.test(l)).length === 2;
    await until(async () => onFollower.lines(), placed, "the placements on the follower's stream");
    await until(async () => onLeader.lines(), placed, "the placements on the leader's stream");
    const follows = onFollower.lines();
    expect(follows.some((l) => / Job JobRegistered web$/.test(l))).toBe(true);
    expect(follows.some((l) => new RegExp(` Node NodeRegistration ${n.node.ID}$`).test(l))).toBe(true);
    // The same events, in the same order, on both servers.
    const upTo = Math.max(...onFollower.frames.map((f) => f.Index));
    expect(onLeader.lines().filter((l) => Number(l.split(' ')[0]) <= upTo)).toEqual(follows);
    expect(onFollower.frames.every((f, i) => i === 0 || f.Index > onFollower.frames[i - 1].Index)).toBe(true);
    await Promise.all([onFollower.stop(), onLeader.stop()]);
  });
});
