/**
 * The server over TLS, through the API client: HTTPS with the cluster CA, client certificates required
 * on every connection (require_client_cert) or on the node API only (node_client_cert, checked before
 * the node's secret), and the server's own node working through its pinned, certificate-bearing
 * connection in both modes.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import type { ClientTls } from '../../src/api/http/tls.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { writeTestPki, type TestPkiFiles } from '../support/tls.js';
import { statusOf, until } from '../support/wait.js';

const CERT_REQUIRED = 'a client certificate signed by the cluster CA is required';
const NODE_ID = '00000000-0000-4000-8000-000000000001';

let dir: string;
let pki: TestPkiFiles;

beforeAll(async () => {
  dir = await makeTempDir('svc-tls-');
  pki = await writeTestPki(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const clientOf = (srv: TestServer, tls: ClientTls, token = srv.rootToken) => new ApiClient({ address: srv.url, token, tls });

/** The server's own node reached ready through the node API, over TLS. */
async function ownNodeReady(srv: TestServer): Promise<void> {
  const id = srv.server.node()!.ID;
  await until(
    async () => (await clientOf(srv, { caCert: pki.caCert }).scheduler<{ Status: string }>('GET', `/v1/node/${id}`)).body.Status,
    (s) => s === 'ready',
    'the server node to be ready',
  );
}

describe('HTTPS with the cluster CA', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey } });
  });
  afterAll(async () => srv?.close());

  it('answers a client that trusts the CA, and its node registers over TLS', async () => {
    expect(srv.url).toMatch(/^https:\/\//);
    const { body } = await clientOf(srv, { caCert: pki.caCert }).scheduler<unknown[]>('GET', '/v1/nodes');
    expect(body).toHaveLength(1);
    await ownNodeReady(srv);
  });

  it('a client without the CA, or with another one, fails with one line naming the check and the flag', async () => {
    for (const tls of [{}, { caCert: pki.otherCaCert }]) {
      const err = await clientOf(srv, tls)
        .scheduler('GET', '/v1/nodes')
        .then(() => undefined, (e: Error) => e);
      expect(err?.constructor.name).toBe('ConnectionError');
      expect(err?.message).toMatch(/^cannot reach the server at https:\/\/127\.0\.0\.1:\d+: the server's certificate is not signed by .*: pass the CA certificate that signed it with -ca-cert \(or SVC_CACERT\)$/);
    }
  });

  it('a name the certificate does not hold fails, naming the names it holds and -tls-server-name', async () => {
    const err = await clientOf(srv, { caCert: pki.caCert, serverName: 'svc.example.com' })
      .scheduler('GET', '/v1/nodes')
      .then(() => undefined, (e: Error) => e);
    expect(err?.message).toContain("the server's certificate is not valid for svc.example.com (it names IP Address:127.0.0.1, DNS:localhost)");
    expect(err?.message).toContain('-tls-server-name');
  });

  it('a plain-HTTP request to the HTTPS port is told to use https://', async () => {
    const err = await new ApiClient({ address: srv.url.replace('https:', 'http:'), token: srv.rootToken })
      .scheduler('GET', '/v1/nodes')
      .then(() => undefined, (e: Error) => e);
    expect(err?.message).toContain('if it serves TLS, the address must start with https://');
  });

  it('an https:// address of a plain-HTTP server is told to use http://', async () => {
    const plain = await startTestServer({ client: false });
    try {
      const err = await new ApiClient({ address: plain.url.replace('http:', 'https:'), token: plain.rootToken })
        .scheduler('GET', '/v1/nodes')
        .then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(/: the server at 127\.0\.0\.1:\d+ does not speak TLS: use an http:\/\/ address$/);
    } finally {
      await plain.close();
    }
  });
});

describe('require_client_cert', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.caCert, requireClientCert: true } });
  });
  afterAll(async () => srv?.close());

  it('refuses a connection without a client certificate in the handshake', async () => {
    const err = await clientOf(srv, { caCert: pki.caCert })
      .secrets('GET', 'sys/health')
      .then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/: the server requires a client certificate: pass one signed by the CA it trusts with -client-cert and -client-key/);
  });

  it('refuses a client certificate from another CA', async () => {
    const err = await clientOf(srv, { caCert: pki.caCert, clientCert: pki.otherClientCert, clientKey: pki.otherClientKey })
      .secrets('GET', 'sys/health')
      .then(() => undefined, (e: Error) => e);
    expect(err?.message).toContain(`the client certificate (${pki.otherClientCert})`);
  });

  it('accepts a client certificate signed by the CA, and the own node presents one too', async () => {
    const health = await clientOf(srv, { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey }).secrets('GET', 'sys/health');
    expect(health).toMatchObject({ initialized: true });
    const id = srv.server.node()!.ID;
    await until(
      async () => (await clientOf(srv, { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey }).scheduler<{ Status: string }>('GET', `/v1/node/${id}`)).body.Status,
      (s) => s === 'ready',
      'the server node to be ready',
    );
  });
});

describe('node_client_cert', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.caCert, nodeClientCert: true } });
  });
  afterAll(async () => srv?.close());

  const withCert = () => clientOf(srv, { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey });
  const withoutCert = (token?: string) => clientOf(srv, { caCert: pki.caCert }, token);
  const otherCa = () => clientOf(srv, { caCert: pki.caCert, clientCert: pki.otherClientCert, clientKey: pki.otherClientKey });

  it('leaves every other endpoint to the token alone', async () => {
    expect((await withoutCert().scheduler<unknown[]>('GET', '/v1/nodes')).body).toHaveLength(1);
    expect(await withoutCert().secrets('GET', 'sys/health')).toMatchObject({ initialized: true });
  });

  it('answers the node API 403 without a verified certificate, before the token or the node secret is looked at', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['PUT', '/v1/node/register', {}],
      ['PUT', `/v1/node/${NODE_ID}/heartbeat`],
      ['GET', `/v1/node/${NODE_ID}/client-allocations`],
      ['POST', `/v1/node/${NODE_ID}/client-allocations`, { Allocs: [] }],
    ];
    for (const client of [withoutCert(), withoutCert('not-a-secret'), otherCa()]) {
      for (const [method, path, body] of calls) {
        expect(await statusOf(client.scheduler(method, path, { body })), `${method} ${path}`).toEqual({ code: 403, message: CERT_REQUIRED });
      }
    }
  });

  it('with a certificate signed by the CA, the node API checks the token and the node secret as usual', async () => {
    expect((await statusOf(withCert().scheduler('PUT', '/v1/node/register', { body: {} }))).code).toBe(400);
    expect(await statusOf(clientOf(srv, { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey }, 'not-a-secret').scheduler('PUT', `/v1/node/${NODE_ID}/heartbeat`))).toEqual({
      code: 403,
      message: 'Permission denied',
    });
  });

  it("the server's own node passes with the server certificate it presents", async () => {
    await ownNodeReady(srv);
  });
});
