/**
 * A request that reaches into a task whose node another server reaches: it is passed on to that server
 * as it came (the exec upgrade too), with the answer relayed; a forwarded request is answered where it
 * lands, and a server that stopped reporting in is not forwarded to. The other server here is a plain
 * HTTP server standing in for one, named in the state as a member that reaches the node.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MEMBERS_TABLE } from '../../../src/cluster/members.js';
import { NODE_HOLDERS_TABLE } from '../../../src/cluster/node-holders.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

describe('requests for a node another server reaches', () => {
  let srv: TestServer;
  let node: FakeNode;
  let allocId: string;
  let peer: http.Server;
  let peerUrl: string;
  const seen: Seen[] = [];

  /** Names `address` in the state as the live (or long silent) server that reaches the node. */
  async function heldBy(address: string, silentMs = 0): Promise<void> {
    const now = Date.now();
    await srv.server.services.store.write((tx) => {
      tx.put(MEMBERS_TABLE, 'peer', { ID: 'peer', Name: 'peer', Address: address, Version: 'test', StartedAt: now - silentMs, LastSeen: now - silentMs });
      tx.put(NODE_HOLDERS_TABLE, node.node.ID, { ServerID: 'peer', ConnectionID: 'test' });
    });
  }

  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    node = fakeNode();
    await registerFakeNode(srv.client(), node);
    await srv.client().scheduler('POST', '/v1/jobs', {
      body: { Job: { ID: 'elsewhere', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }] }] } },
    });
    [{ ID: allocId }] = await until(() => srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/job/elsewhere/allocations').then((r) => r.body), (l) => l.length === 1, 'the allocation to be placed');
    peer = http.createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('answered by the peer');
    });
    peer.on('upgrade', (req: http.IncomingMessage, socket: net.Socket) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 4\r\nconnection: close\r\n\r\npeer');
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    peerUrl = `http://127.0.0.1:${(peer.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    peer?.close();
    await srv?.close();
  });

  it('passes the request on to the server that reaches the node and relays its answer', async () => {
    await heldBy(peerUrl);
    const answer = await srv.client().request('GET', `/v1/client/fs/cat/${allocId}`, { query: { path: 't/local/x' } });
    expect([answer.status, answer.body.toString()]).toEqual([200, 'answered by the peer']);
    const got = seen.at(-1)!;
    expect([got.method, got.url]).toEqual(['GET', `/v1/client/fs/cat/${allocId}?path=t%2Flocal%2Fx`]);
    expect(got.headers['x-svc-token']).toBe(srv.rootToken);
    expect(got.headers['x-svc-forwarded-to-node']).toBe('1');
    await srv.client().request('POST', `/v1/client/allocation/${allocId}/signal`, { body: { Signal: 'SIGHUP' } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: `/v1/client/allocation/${allocId}/signal` });
  });

  it('hands an exec upgrade to that server whole', async () => {
    await heldBy(peerUrl);
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/client/allocation/${allocId}/exec?task=t&command=${encodeURIComponent('["true"]')}`, { headers: { 'x-svc-token': srv.rootToken } });
    const refusal = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.once('open', () => reject(new Error('the upgrade was answered here')));
      ws.once('error', reject);
    });
    expect(refusal).toEqual({ status: 403, body: 'peer' });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', headers: { upgrade: 'websocket', 'x-svc-forwarded-to-node': '1' } });
  });

  it('answers a forwarded request itself, and does not forward to a server that stopped reporting in', async () => {
    await heldBy(peerUrl);
    const notHere = `node ${node.node.ID} of allocation ${allocId} is not connected to any server`;
    const forwarded = srv.client().scheduler('GET', `/v1/client/fs/ls/${allocId}`, { headers: { 'x-svc-forwarded-to-node': '1' } });
    expect(await statusOf(forwarded)).toEqual({ code: 400, message: notHere });
    await heldBy(peerUrl, 60_000);
    expect(await statusOf(srv.client().scheduler('GET', `/v1/client/fs/ls/${allocId}`))).toEqual({ code: 400, message: notHere });
  });

  it('says which server did not answer', async () => {
    const gone = net.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(gone.address() as net.AddressInfo).port}`;
    await new Promise((resolve) => gone.close(resolve));
    await heldBy(address);
    const failed = await statusOf(srv.client().scheduler('GET', `/v1/client/fs/ls/${allocId}`));
    expect(failed.code).toBe(500);
    expect(failed.message).toMatch(new RegExp(`^the server at ${address}, which reaches the allocation's node, did not answer: .*ECONNREFUSED`));
  });
});
