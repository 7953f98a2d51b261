/** The http check against a real local server: what passes, what fails, and what its output says. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHttpCheck } from '../../../src/client/checks/http-check.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let port: number;
const seen: Seen[] = [];
const pending = new Set<http.ServerResponse>();

const check = (path: string, extra: Record<string, unknown> = {}) => ({ Protocol: '', Path: path, Method: '', Header: null, Body: '', TLSSkipVerify: false, TLSServerName: '', ...extra });
const target = () => ({ host: '127.0.0.1', port });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/ok') return res.end('fine');
      if (path === '/broken') return res.writeHead(500).end('database unreachable');
      if (path === '/busy') return res.writeHead(429).end('slow down');
      if (path === '/moved') return res.writeHead(302, { Location: '/elsewhere' }).end('see elsewhere');
      if (path === '/large') return res.writeHead(503).end('x'.repeat(10_000));
      // /slow never answers: the check's timeout must cut it short
      pending.add(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const res of pending) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('http check', () => {
  it('passes on 200 with "nomad: http ok"', async () => {
    expect(await runHttpCheck(target(), check('/ok'), 10_000)).toEqual({ Status: 'success', StatusCode: 200, Output: 'nomad: http ok' });
  });

  it('fails on 500 with the response body as the output', async () => {
    expect(await runHttpCheck(target(), check('/broken'), 10_000)).toEqual({ Status: 'failure', StatusCode: 500, Output: 'database unreachable' });
  });

  it('fails on 429: Nomad checks know no warning state', async () => {
    expect(await runHttpCheck(target(), check('/busy'), 10_000)).toEqual({ Status: 'failure', StatusCode: 429, Output: 'slow down' });
  });

  it('passes on a status below 400 that is not 200, with the body as the output', async () => {
    expect(await runHttpCheck(target(), check('/moved'), 10_000)).toEqual({ Status: 'success', StatusCode: 302, Output: 'see elsewhere' });
  });

  it('keeps at most 3 KiB of the body', async () => {
    const r = await runHttpCheck(target(), check('/large'), 10_000);
    expect(r.Status).toBe('failure');
    expect(r.Output).toBe('x'.repeat(3 * 1024));
  });

  it('fails when the server does not answer within the timeout', async () => {
    const r = await runHttpCheck(target(), check('/slow'), 300);
    expect(r).toEqual({ Status: 'failure', Output: `nomad: Get "http://127.0.0.1:${port}/slow": context deadline exceeded` });
  });

  it('fails with Go\'s dial error when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await runHttpCheck({ host: '127.0.0.1', port: free }, check('/ok'), 10_000);
    expect(r).toEqual({ Status: 'failure', Output: `nomad: Get "http://127.0.0.1:${free}/ok": dial tcp 127.0.0.1:${free}: connect: connection refused` });
  });

  it('sends the method, headers, body and query the check declares', async () => {
    seen.length = 0;
    const r = await runHttpCheck(target(), check('/ok?deep=1', { Method: 'POST', Header: { 'X-Probe': ['a', 'b'], Host: ['svc.example'] }, Body: '{"ping":true}' }), 10_000);
    expect(r.Status).toBe('success');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/ok?deep=1', body: '{"ping":true}' });
    expect(seen[0].headers).toMatchObject({ 'x-probe': 'a, b', host: 'svc.example' });
    expect(seen[0].headers['user-agent']).toMatch(/^svc\//);
  });

  it('stops at once when told to', async () => {
    const stop = new AbortController();
    const run = runHttpCheck(target(), check('/slow'), 60_000, stop.signal);
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    expect((await run).Output).toMatch(/context canceled$/);
  });
});
