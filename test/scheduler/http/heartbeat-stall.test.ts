/**
 * A server whose event loop is held for longer than a node's TTL and grace (here by the test itself,
 * which runs in the server's process) does not mark the node down for its own lateness: whatever the
 * node sent meanwhile was waiting to be read. A node that stays silent once the loop is free again is
 * marked down as usual.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/http/client.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { until } from '../../support/wait.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ client: false, heartbeatTtlMs: 1000, heartbeatGraceMs: 500 });
});
afterAll(async () => srv?.close());

const status = async (id: string) => (await srv.client().scheduler<{ Status: string }>('GET', `/v1/node/${id}`)).body.Status;

it('a stalled server does not mark a node down for its own lateness, and does once the node stays silent', async () => {
  const n = fakeNode({ Datacenter: 'dc-stall' });
  await registerFakeNode(srv.client(), n);
  const self = new ApiClient({ address: srv.url, token: n.secret });
  // The last heartbeat before the stall; none is on its way, so none can be read during the sweep below.
  await self.scheduler('PUT', `/v1/node/${n.node.ID}/heartbeat`);
  const { heartbeats } = srv.server.services.scheduler;
  // Held for more than twice TTL + grace.
  const start = performance.now();
  while (performance.now() - start < 4000);
  // The sweep the stall held back, run before any timer or request can: the node is not silent on the
  // server's loop time.
  expect(await heartbeats.expire()).toEqual([]);
  expect(await status(n.node.ID)).toBe('ready');
  // Silent from here on: marked down after TTL + grace of loop time.
  await until(() => status(n.node.ID), (s) => s === 'down', 'the silent node marked down');
});
