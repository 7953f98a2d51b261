/**
 * A node on another machine joining through the node API: the first registration needs a management
 * token, after which the node's secret alone registers it again (a restart) and keeps it alive; a refusal
 * reaches the agent's owner; and an ID already held by another secret stays with that secret.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintNode } from '../../src/client/fingerprint.js';
import { NodeAgent, type NodeRegistrationRefused } from '../../src/client/node-agent.js';
import type { Node } from '../../src/scheduler/structs/node.js';
import { createLogger } from '../../src/shared/log.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

const log = createLogger('error', () => undefined);

describe('a remote node joins', () => {
  let srv: TestServer;
  let dir: string;
  const agents: NodeAgent[] = [];

  beforeAll(async () => {
    // A short TTL and grace, so that a node that stops heartbeating goes down within the test.
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600, heartbeatGraceMs: 400 });
    dir = await makeTempDir('svc-node-join-');
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await srv?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts an agent for the node kept in `dataDir`; answers it and the refusal it got, if any. */
  async function startAgent(dataDir: string, joinToken?: string, identity?: { node: Node; secret: string }) {
    const { node, secret } = identity ?? (await fingerprintNode({ dataDir, datacenter: 'dc1', nodeClass: '', meta: {} }));
    let refusal: NodeRegistrationRefused | undefined;
    const agent = new NodeAgent({
      node,
      secret,
      servers: [srv.url],
      joinToken,
      allocsDir: path.join(dataDir, 'client', 'allocs'),
      log,
      stopTasksOnShutdown: true,
      onRefused: (err) => (refusal = err),
    });
    agents.push(agent);
    await agent.start();
    return { agent, node, secret, refusal: () => refusal };
  }

  const nodeStatus = (id: string) => srv.client().scheduler<{ Status: string }>('GET', `/v1/node/${id}`).then((r) => r.body.Status);

  it('needs a management token the first time, and only its secret afterwards', async () => {
    const dataDir = path.join(dir, 'a');
    const unknown = await startAgent(dataDir);
    expect(unknown.refusal()).toMatchObject({ statusCode: 403, withToken: false, nodeId: unknown.node.ID });
    await unknown.agent.stop();

    const joined = await startAgent(dataDir, srv.rootToken);
    expect(joined.refusal()).toBeUndefined();
    expect(await nodeStatus(joined.node.ID)).toBe('ready');
    await joined.agent.stop();
    await until(() => nodeStatus(joined.node.ID), (s) => s === 'down', 'the stopped node to go down');

    // Down while away, the node is ready again after registering with its secret alone.
    await srv.client().scheduler('POST', `/v1/node/${joined.node.ID}/eligibility`, { body: { Eligibility: 'ineligible' } });
    const again = await startAgent(dataDir);
    expect(again.refusal()).toBeUndefined();
    expect(again.node.ID).toBe(joined.node.ID);
    expect(await nodeStatus(again.node.ID)).toBe('ready');
    // An operator's eligibility outlives the re-registration, as in Nomad.
    expect((await srv.client().scheduler<{ SchedulingEligibility: string }>('GET', `/v1/node/${again.node.ID}`)).body.SchedulingEligibility).toBe('ineligible');
  });

  it('keeps a joined node alive with heartbeats sent with its secret', async () => {
    const { agent, node } = await startAgent(path.join(dir, 'b'), srv.rootToken);
    // Well past the TTL and its grace: only heartbeats (which answer to the secret alone) keep it ready.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await nodeStatus(node.ID)).toBe('ready');
    await agent.stop();
    await until(() => nodeStatus(node.ID), (s) => s === 'down', 'the stopped node to go down');
  });

  it('refuses a bad join token, and an ID claimed with another secret', async () => {
    const bad = await startAgent(path.join(dir, 'c'), 'not-a-token');
    expect(bad.refusal()).toMatchObject({ statusCode: 403, withToken: true });
    await bad.agent.stop();

    const owner = await startAgent(path.join(dir, 'd'), srv.rootToken);
    const impostor = await fingerprintNode({ dataDir: path.join(dir, 'e'), datacenter: 'dc1', nodeClass: '', meta: {} });
    const claim = await startAgent(path.join(dir, 'e'), srv.rootToken, { node: { ...impostor.node, ID: owner.node.ID }, secret: impostor.secret });
    expect(claim.refusal()).toMatchObject({ statusCode: 409, withToken: true, reason: `node ${owner.node.ID} is registered with another secret` });
    await claim.agent.stop();
    expect(await nodeStatus(owner.node.ID)).toBe('ready');
    expect((await srv.client().scheduler<{ Name: string }>('GET', `/v1/node/${owner.node.ID}`)).body.Name).toBe(owner.node.Name);
  });
});
