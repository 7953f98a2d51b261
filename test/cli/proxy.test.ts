/**
 * The CLI through an HTTP proxy, as curl goes: HTTPS_PROXY (CONNECT) for https:// addresses,
 * HTTP_PROXY (the absolute URL) for http:// ones, lower-case forms first, and NO_PROXY to go direct.
 * The proxy is a small node:http one started here, which records what it carried.
 */
import http from 'node:http';
import net from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { noProxy } from '../../src/api/http/proxy.js';
import { makeTempDir, runCli, startTestServer, type TestServer } from '../support/server.js';
import { writeTestPki, type TestPkiFiles } from '../support/tls.js';

interface TestProxy {
  url: string;
  /** CONNECT targets (host:port) and absolute URLs, in order */
  carried: string[];
  /** answer CONNECT with this status instead of tunnelling */
  refuseWith?: number;
  close(): Promise<void>;
}

async function startProxy(): Promise<TestProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: TestProxy = { url: '', carried: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    proxy.carried.push(req.url ?? '');
    const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    proxy.carried.push(req.url ?? '');
    sockets.add(client);
    if (proxy.refuseWith) {
      client.end(`HTTP/1.1 ${proxy.refuseWith} Forbidden\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}

describe('NO_PROXY, as curl reads it', () => {
  const skips = (url: string, list: string) => noProxy(new URL(url), { NO_PROXY: list });

  it('names hosts and their subdomains, with or without a leading dot, never a mere suffix', () => {
    expect(skips('https://svc.example.com:4646', 'example.com')).toBe(true);
    expect(skips('https://example.com', '.example.com')).toBe(true);
    expect(skips('https://a.b.example.com', '*.example.com')).toBe(true);
    expect(skips('https://notexample.com', 'example.com')).toBe(false);
    expect(skips('https://SVC.Example.COM', 'svc.example.com')).toBe(true);
  });

  it('* leaves every host out; an empty list none', () => {
    expect(skips('http://anything:1', '*')).toBe(true);
    expect(skips('http://anything:1', '')).toBe(false);
  });

  it('matches IP addresses exactly or by CIDR range, IPv6 included', () => {
    expect(skips('http://127.0.0.1:4646', '10.0.0.1, 127.0.0.1')).toBe(true);
    expect(skips('http://127.0.0.2:4646', '127.0.0.1')).toBe(false);
    expect(skips('http://10.1.2.3:4646', '10.0.0.0/8')).toBe(true);
    expect(skips('http://11.1.2.3:4646', '10.0.0.0/8')).toBe(false);
    expect(skips('http://[::1]:4646', '::1')).toBe(true);
    expect(skips('http://[fd00::5]:4646', 'fd00::/8')).toBe(true);
  });

  it('an entry with a port leaves out that port only; the default port counts', () => {
    expect(skips('http://127.0.0.1:4646', '127.0.0.1:4646')).toBe(true);
    expect(skips('http://127.0.0.1:4647', '127.0.0.1:4646')).toBe(false);
    expect(skips('https://svc.example.com', 'example.com:443')).toBe(true);
    expect(skips('http://[::1]:4646', '[::1]:4646')).toBe(true);
    expect(skips('http://[::1]:80', '[::1]:4646')).toBe(false);
  });

  it('reads no_proxy before NO_PROXY, and loopback is not special', () => {
    expect(noProxy(new URL('http://127.0.0.1:1'), { no_proxy: '127.0.0.1', NO_PROXY: 'other' })).toBe(true);
    expect(noProxy(new URL('http://127.0.0.1:1'), {})).toBe(false);
  });
});

describe('the CLI through a proxy', () => {
  let dir: string;
  let pki: TestPkiFiles;
  let tlsSrv: TestServer;
  let plainSrv: TestServer;
  let proxy: TestProxy;

  beforeAll(async () => {
    dir = await makeTempDir('svc-proxy-');
    pki = await writeTestPki(dir);
    tlsSrv = await startTestServer({ client: false, tls: { certFile: pki.serverCert, keyFile: pki.serverKey } });
    plainSrv = await startTestServer({ client: false });
    proxy = await startProxy();
  });

  beforeEach(() => {
    proxy.carried.length = 0;
    proxy.refuseWith = undefined;
  });

  afterAll(async () => {
    await proxy?.close();
    await tlsSrv?.close();
    await plainSrv?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const hostOf = (srv: TestServer) => new URL(srv.url).host;
  const status = (srv: TestServer, env: Record<string, string>) =>
    runCli(['node', 'status'], { HOME: dir, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, SVC_CACERT: pki.caCert, NO_COLOR: '1', ...env });

  it('tunnels https:// requests through HTTPS_PROXY (or https_proxy) with CONNECT', async () => {
    for (const name of ['HTTPS_PROXY', 'https_proxy']) {
      proxy.carried.length = 0;
      const r = await status(tlsSrv, { [name]: proxy.url });
      expect([r.code, r.stderr], name).toEqual([0, '']);
      expect(proxy.carried, name).toEqual([hostOf(tlsSrv)]);
    }
  });

  it('goes direct for hosts NO_PROXY names, and through the proxy for another port of that host', async () => {
    for (const list of ['127.0.0.1', '*', `localhost,${hostOf(tlsSrv)}`]) {
      expect((await status(tlsSrv, { HTTPS_PROXY: proxy.url, NO_PROXY: list })).code, list).toBe(0);
    }
    expect(proxy.carried).toEqual([]);
    expect((await status(tlsSrv, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1:1' })).code).toBe(0);
    expect(proxy.carried).toEqual([hostOf(tlsSrv)]);
  });

  it('sends http:// requests to HTTP_PROXY as absolute URLs, and leaves them alone with only HTTPS_PROXY set', async () => {
    expect((await status(plainSrv, { HTTPS_PROXY: proxy.url })).code).toBe(0);
    expect(proxy.carried).toEqual([]);
    expect((await status(plainSrv, { HTTP_PROXY: proxy.url })).code).toBe(0);
    expect(proxy.carried).toEqual([`${plainSrv.url}/v1/nodes`]);
  });

  it('checks the server certificate inside the tunnel, and says so in one line naming the proxy', async () => {
    const r = await status(tlsSrv, { HTTPS_PROXY: proxy.url, SVC_CACERT: pki.otherCaCert });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Error: cannot reach the server at ${tlsSrv.url} through the proxy ${new URL(proxy.url).host}: the server's certificate is not signed by the CA in ${pki.otherCaCert} (UNABLE_TO_VERIFY_LEAF_SIGNATURE): pass the CA certificate that signed it with -ca-cert (or SVC_CACERT)`,
    );
  });

  it('a proxy that refuses the tunnel is reported in one line', async () => {
    proxy.refuseWith = 403;
    const r = await status(tlsSrv, { HTTPS_PROXY: proxy.url });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`Error: cannot reach the server at ${tlsSrv.url}: the proxy ${new URL(proxy.url).host} refused the tunnel (403)`);
  });
});
