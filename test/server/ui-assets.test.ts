/**
 * The web UI's files as the server answers them: index.html for every address of the app, the hashed
 * assets cached for good (gzipped when asked), the security headers on all of them, and the API's
 * routes untouched. The server reads what `npm run build` put in dist/ui.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, uiHandler } from '../../src/server/ui/ui-assets.js';
import type { RawRequest } from '../../src/framework/http/types.js';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';
import { makeTempDir, REPO } from '../support/server.js';

const get = (p: string, headers: RawRequest['headers'] = {}): RawRequest => {
  const q = p.indexOf('?');
  return { method: 'GET', path: q < 0 ? p : p.slice(0, q), query: new URLSearchParams(q < 0 ? '' : p.slice(q + 1)), headers, body: Buffer.alloc(0), remoteAddress: '127.0.0.1' };
};

describe('the UI handler', () => {
  let dir: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  beforeAll(async () => {
    dir = await makeTempDir('svc-ui-');
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>svc</title>');
    await writeFile(path.join(dir, 'assets', 'main-ABC123.js'), script);
    await writeFile(path.join(dir, 'assets', 'main-ABC123.css'), 'body{}');
  });

  it('answers index.html, uncached, for every address of the app, with the security headers', async () => {
    const ui = uiHandler(dir);
    for (const p of ['/ui/', '/ui/jobs', '/ui/jobs/example%40default', '/ui/allocations/1234?x=1']) {
      const answer = (await ui(get(p, { host: '127.0.0.1:4646' })))!;
      expect(answer.status).toBe(200);
      expect(String(answer.body)).toBe('<!doctype html><title>svc</title>');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['content-security-policy']).toBe(contentSecurityPolicy('127.0.0.1:4646'));
    }
  });

  it('serves a built asset by its hashed name, cached for good, gzipped only when the browser accepts it', async () => {
    const ui = uiHandler(dir);
    const plain = (await ui(get('/ui/assets/main-ABC123.js')))!;
    expect(plain.status).toBe(200);
    expect(String(plain.body)).toBe(script);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = (await ui(get('/ui/assets/main-ABC123.js', { 'accept-encoding': 'br, gzip;q=0.8' })))!;
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body as Buffer).toString()).toBe(script);
    // Too small to be worth compressing.
    expect((await ui(get('/ui/assets/main-ABC123.css', { 'accept-encoding': 'gzip' })))!.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404, never the page, for an asset that was not built', async () => {
    const ui = uiHandler(dir);
    for (const p of ['/ui/assets/missing.js', '/ui/assets/..%2Findex.html', '/ui/assets/']) {
      const answer = (await ui(get(p)))!;
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('leaves every other request to the API, and redirects / and /ui to /ui/, their query kept', async () => {
    const ui = uiHandler(dir);
    expect(await ui(get('/v1/jobs'))).toBeUndefined();
    expect(await ui(get('/uix'))).toBeUndefined();
    expect(await ui({ ...get('/ui/'), method: 'POST' })).toBeUndefined();
    expect((await ui({ ...get('/ui/jobs'), method: 'HEAD' }))!.headers['content-security-policy']).toBe(contentSecurityPolicy(undefined));
    for (const p of ['/', '/ui']) {
      const answer = (await ui(get(p)))!;
      expect(answer.status).toBe(307);
      expect(answer.headers.location).toBe('/ui/');
      expect((await ui(get(`${p}?ott=abc&namespace=web`)))!.headers.location).toBe('/ui/?ott=abc&namespace=web');
    }
  });

  it('says how to build the UI when there is none', async () => {
    const answer = (await uiHandler(path.join(dir, 'nowhere'))(get('/ui/')))!;
    expect(answer.status).toBe(404);
    expect(String(answer.body)).toContain('npm run build');
  });

  it('names the page\'s own origin for WebSockets, and only a Host that is a host', () => {
    const csp = contentSecurityPolicy('example.com:4646');
    for (const directive of ["default-src 'self'", "script-src 'self'", "connect-src 'self' ws://example.com:4646 wss://example.com:4646", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) {
      expect(csp.split('; ')).toContain(directive);
    }
    expect(contentSecurityPolicy("evil.com; script-src 'unsafe-inline'").split('; ')).toContain("connect-src 'self'");
    expect(contentSecurityPolicy('[::1]:4646')).toContain('ws://[::1]:4646');
  });
});

describe('the server', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  it('serves the built UI at /ui, the files the build wrote, and the API beside it', async () => {
    const index = await srv.request('GET', '/ui/jobs', { token: '' });
    expect(index.status).toBe(200);
    expect(index.body).toBe(await readFile(path.join(REPO, 'dist/ui/index.html'), 'utf8'));
    const assets = await readdir(path.join(REPO, 'dist/ui/assets'));
    const entry = /src="\/ui\/assets\/([^"]+\.js)"/.exec(String(index.body))![1];
    expect(assets).toContain(entry);
    const js = await srv.request('GET', `/ui/assets/${entry}`, { token: '' });
    expect(js.status).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await srv.request('GET', '/', { token: '' })).headers.location).toBe('/ui/');
    expect((await srv.request('GET', '/v1/jobs', { token: '' })).status).toBe(403);
  });
});
