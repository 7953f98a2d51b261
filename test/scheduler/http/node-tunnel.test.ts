/**
 * The server's end of node tunnels: a node opens its control socket with its own secret only (and its
 * client certificate where the server requires one of nodes), the server then reaches the node and
 * records that it does, a later socket of the same node replaces the earlier one, and a data connection
 * is taken only when a request of the server waits for it.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { NODE_HOLDERS_TABLE } from '../../../src/cluster/node-holders.js';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { writeTestPki, type TestPkiFiles } from '../../support/tls.js';
import { until } from '../../support/wait.js';

type Opened = { ws: WebSocket } | { status: number; body: string };

/** Opens a node's control socket; answers the socket, or the refusal's status and message. */
function openTunnel(url: string, nodeId: string, secret: string | undefined, tls: Record<string, string> = {}): Promise<Opened> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/node/${nodeId}/tunnel`, { headers: secret ? { 'x-svc-token': secret } : {}, ...tls });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

/** A data connection for `streamId`: the status and message of the server's answer. */
function dialStream(url: string, nodeId: string, streamId: string, secret: string, upgrade: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/v1/node/${nodeId}/tunnel/${streamId}`, { headers: { connection: 'Upgrade', upgrade, 'x-svc-token': secret } });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const closed = (ws: WebSocket) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve())));

describe('node tunnels', () => {
  let srv: TestServer;
  let node: FakeNode;
  let other: FakeNode;
  const reaches = (id: string) => srv.server.services.scheduler.nodeControl(id) !== undefined;
  const holder = (id: string) => srv.server.services.store.get<{ ServerID: string }>(NODE_HOLDERS_TABLE, id)?.ServerID;

  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    node = fakeNode();
    other = fakeNode();
    await registerFakeNode(srv.client(), node);
    await registerFakeNode(srv.client(), other);
  });
  afterAll(async () => srv?.close());

  it("opens with the node's own secret only, and the server reaches the node while it is open", async () => {
    expect(await openTunnel(srv.url, node.node.ID, undefined)).toEqual({ status: 403, body: 'Permission denied' });
    expect(await openTunnel(srv.url, node.node.ID, other.secret)).toEqual({ status: 403, body: 'Permission denied' });
    expect(await openTunnel(srv.url, node.node.ID, srv.rootToken)).toEqual({ status: 403, body: 'Permission denied' });
    expect(reaches(node.node.ID)).toBe(false);

    const opened = await openTunnel(srv.url, node.node.ID, node.secret);
    if (!('ws' in opened)) throw new Error(`the tunnel was refused: ${opened.status} ${opened.body}`);
    expect(reaches(node.node.ID)).toBe(true);
    await until(async () => holder(node.node.ID), (id) => id === srv.server.services.leadership.self.ID, 'the server to record that it reaches the node');

    opened.ws.close();
    await until(async () => reaches(node.node.ID), (r) => !r, 'the server to let go of the closed tunnel');
    await until(async () => holder(node.node.ID) ?? 'none', (id) => id === 'none', 'the record to go with the tunnel');
  });

  it("replaces a node's earlier socket with its later one", async () => {
    const first = await openTunnel(srv.url, other.node.ID, other.secret);
    const second = await openTunnel(srv.url, other.node.ID, other.secret);
    if (!('ws' in first) || !('ws' in second)) throw new Error('a tunnel was refused');
    await closed(first.ws);
    expect(second.ws.readyState).toBe(second.ws.OPEN);
    expect(reaches(other.node.ID)).toBe(true);
    // The earlier socket's end does not take the later one's record with it.
    await until(async () => holder(other.node.ID), (id) => id === srv.server.services.leadership.self.ID, 'the later socket to be recorded');
    second.ws.close();
    await closed(second.ws);
  });

  it('takes a data connection only when a request of the server waits for it', async () => {
    const stray = await dialStream(srv.url, node.node.ID, 'no-such-stream', node.secret, 'svc-tunnel');
    expect(stray).toEqual({ status: 404, body: `no request of this server waits for tunnel stream no-such-stream of node ${node.node.ID}` });
    expect((await dialStream(srv.url, node.node.ID, 'no-such-stream', other.secret, 'svc-tunnel')).status).toBe(403);
    expect(await dialStream(srv.url, node.node.ID, 'no-such-stream', node.secret, 'websocket')).toEqual({ status: 400, body: 'a tunnel data connection asks for "Upgrade: svc-tunnel"' });
  });
});

describe('node tunnels with node_client_cert', () => {
  let dir: string;
  let pki: TestPkiFiles;
  let srv: TestServer;
  let node: FakeNode;

  beforeAll(async () => {
    dir = await makeTempDir('svc-tunnel-tls-');
    pki = await writeTestPki(dir);
    srv = await startTestServer({ client: false, tls: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.caCert, nodeClientCert: true } });
    node = fakeNode();
    const { ApiClient } = await import('../../../src/api/http/client.js');
    await registerFakeNode(new ApiClient({ address: srv.url, token: srv.rootToken, tls: { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey } }), node);
  });
  afterAll(async () => {
    await srv?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a tunnel without a client certificate the cluster CA signed', async () => {
    const ca = readFileSync(pki.caCert, 'utf8');
    expect(await openTunnel(srv.url, node.node.ID, node.secret, { ca })).toEqual({ status: 403, body: 'a client certificate signed by the cluster CA is required' });
    const opened = await openTunnel(srv.url, node.node.ID, node.secret, { ca, cert: readFileSync(pki.clientCert, 'utf8'), key: readFileSync(pki.clientKey, 'utf8') });
    if (!('ws' in opened)) throw new Error(`the tunnel was refused: ${opened.status} ${opened.body}`);
    expect(srv.server.services.scheduler.nodeControl(node.node.ID)).toBeDefined();
    opened.ws.close();
    await closed(opened.ws);
  });
});
