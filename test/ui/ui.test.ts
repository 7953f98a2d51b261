/**
 * The web UI in a real browser (Debian's chromium) against a real `svc server -dev` with its own node:
 * signing in, a job registered through the API showing up without a reload, its allocation's log read
 * as the task writes it, names rendered as text, the Content-Security-Policy in force, `svc ui
 * -authenticate` signing a browser in once, and the token never in an address the page asked for.
 */
import { rm } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { makeTempDir, runCli } from '../support/server.js';
import { until } from '../support/wait.js';
import { signIn } from '../support/ui.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';

/** The page's globals as the functions handed to page.evaluate use them: they run in the browser. */
declare const window: { notReloaded?: boolean; inlineRan?: boolean };
declare const sessionStorage: { length: number };
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  createElement(tag: 'script'): { textContent: string };
  body: { append(node: unknown): void };
  addEventListener(type: 'securitypolicyviolation', listener: (e: { violatedDirective: string }) => void, opts: { once: true }): void;
};

let srv: SpawnedServer;
let home: string;
let browser: Browser;
let api: ApiClient;
const requests: Request[] = [];
/** API requests sent and not yet answered in full. */
const pending = new Set<Request>();
const dialogs: string[] = [];

beforeAll(async () => {
  home = await makeTempDir('svc-ui-home-');
  [srv, browser] = await Promise.all([spawnServer(['-dev', '-port=0'], { HOME: home }), launchBrowser()]);
  api = new ApiClient({ address: srv.url, token: srv.rootToken });
  browser.context.on('request', (r) => {
    requests.push(r);
    if (new URL(r.url()).pathname.startsWith('/v1/')) pending.add(r);
  });
  browser.context.on('requestfinished', (r) => pending.delete(r));
  browser.context.on('requestfailed', (r) => pending.delete(r));
  browser.context.on('page', (p) => p.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss())));
  // Installing chromium on a machine without it takes minutes.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stopServer(srv);
  if (home) await rm(home, { recursive: true, force: true });
});

const TICKER = 'i=0; while :; do echo "tick-$i"; i=$((i+1)); sleep 0.2; done';

const echoJob = (id: string, name = id, script = TICKER) => ({
  Job: {
    ID: id,
    Name: name,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'ticker', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 1_000_000_000 }] }],
  },
});


/** What a page has in flight once it has settled: the API paths and queries of its open requests, sorted. */
const settledRequests = (page: Page, count: number) =>
  until(
    async () => [...pending].filter((r) => r.frame().page() === page).map((r) => { const u = new URL(r.url()); return `${u.pathname}?${u.searchParams}`; }).sort(),
    (open) => open.length >= count && open.every((u) => u.includes('index=') || u.includes('follow=true')),
    `${count} requests in flight`,
  );

/** The highest tick the log view shows. */
const lastTick = (page: Page) => page.$eval('[data-testid=log]', (el) => Math.max(-1, ...[...(el.textContent ?? '').matchAll(/tick-(\d+)/g)].map((m) => Number(m[1]))));

describe('the web UI', () => {
  it('signs in with a token, lists a job registered meanwhile without a reload, and streams its allocation\'s log', async () => {
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    expect(await page.textContent('[data-testid=signed-in]')).toContain('management token');

    await page.click('header nav >> text=Jobs');
    await page.waitForSelector('text=No jobs');
    // Set in this document: a reload would lose it.
    await page.evaluate(() => (window.notReloaded = true));
    await api.scheduler('POST', '/v1/jobs', { body: echoJob('ticker') });
    await page.waitForSelector('[data-testid=jobs] >> text=ticker');
    expect(await page.evaluate(() => window.notReloaded)).toBe(true);

    await page.click('[data-testid=jobs] >> text=ticker');
    await page.waitForSelector('[data-testid=task-groups] >> text=web');
    // Once settled, each live view of the job's page keeps one blocking query open, and nothing else.
    const onJobPage = await settledRequests(page, 2);
    expect(onJobPage).toHaveLength(2);
    expect(onJobPage[0]).toMatch(/^\/v1\/job\/ticker\/summary\?namespace=default&index=\d+&wait=300s$/);
    expect(onJobPage[1]).toMatch(/^\/v1\/job\/ticker\?namespace=default&index=\d+&wait=300s$/);
    await page.click('.tabs >> text=Allocations');
    await page.click('[data-testid=allocations] a');
    await page.waitForSelector('[data-testid=tasks] >> text=ticker');
    await page.waitForFunction(() => /tick-\d+/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    const seen = await lastTick(page);
    // Lines the task writes after the page has read the log arrive on the same open stream.
    await page.waitForFunction((n) => [...(document.querySelector('[data-testid=log]')?.textContent ?? '').matchAll(/tick-(\d+)/g)].some((m) => Number(m[1]) > n + 2), seen);
    expect(await page.textContent('[data-testid=log-phase]')).toContain('Streaming');
    const onAllocPage = await settledRequests(page, 2);
    expect(onAllocPage).toHaveLength(2);
    expect(onAllocPage[0]).toMatch(/^\/v1\/allocation\/[0-9a-f-]{36}\?index=\d+&wait=300s$/);
    expect(onAllocPage[1]).toMatch(/^\/v1\/client\/fs\/logs\/[0-9a-f-]{36}\?task=ticker&type=stdout&follow=true&plain=true&origin=start&offset=0$/);
    await page.close();
  });

  it('shows a job whose name is markup, and a task printing markup and escape sequences, as text, running nothing', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const printsEscapes = "printf '\\033[31m<b>bold</b>\\033[0m\\033]0;a title\\007 bell\\007\\n'; exec sleep 3600";
    await api.scheduler('POST', '/v1/jobs', { body: echoJob('markup', name, printsEscapes) });
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.goto(`${srv.url}/ui/jobs`);
    await page.waitForSelector('[data-testid=jobs] >> text=markup');
    expect(await page.textContent('[data-testid=jobs]')).toContain(name);
    await page.click('[data-testid=jobs] >> text=markup');
    await page.waitForSelector('.facts');
    expect(await page.textContent('.facts')).toContain(name);
    expect(await page.locator('img').count()).toBe(0);

    await page.click('.tabs >> text=Allocations');
    await page.click('[data-testid=allocations] a');
    await page.waitForFunction(() => (document.querySelector('[data-testid=log]')?.textContent ?? '').includes('bell'));
    expect(await page.textContent('[data-testid=log]')).toBe('<b>bold</b> bell\u2407\n');
    expect(await page.locator('[data-testid=log] b').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('filters the jobs list by namespace and ID prefix, and pages through it', async () => {
    await api.scheduler('POST', '/v1/namespace/other', { body: { Name: 'other' } });
    const parked = (id: string, namespace = 'default') => ({ Job: { ID: id, Namespace: namespace, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] } });
    for (let i = 0; i < 53; i++) await api.scheduler('POST', '/v1/jobs', { body: parked(`paged-${String(i).padStart(2, '0')}`) });
    await api.scheduler('POST', '/v1/jobs', { query: { namespace: 'other' }, body: parked('elsewhere', 'other') });
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.goto(`${srv.url}/ui/jobs?prefix=paged-`);
    const ids = () => page.$$eval('[data-testid=jobs] tbody tr td:first-child a', (links) => links.map((a) => a.textContent));
    await page.waitForSelector('[data-testid=jobs] >> text=paged-00');
    expect(await ids()).toHaveLength(50);
    await page.click('.pager >> text=Next page');
    await page.waitForSelector('[data-testid=jobs] >> text=paged-52');
    expect(await ids()).toEqual(['paged-50', 'paged-51', 'paged-52']);
    await page.click('.pager >> text=First page');
    await page.waitForSelector('[data-testid=jobs] >> text=paged-00');

    await page.fill('input[type=search]', 'paged-4');
    await page.waitForFunction(() => document.querySelector('[data-testid=jobs] tbody')?.textContent?.includes('paged-00') === false);
    expect(await ids()).toEqual(['paged-40', 'paged-41', 'paged-42', 'paged-43', 'paged-44', 'paged-45', 'paged-46', 'paged-47', 'paged-48', 'paged-49']);

    await page.fill('input[type=search]', '');
    await page.selectOption('select', 'other');
    await page.waitForSelector('[data-testid=jobs] >> text=elsewhere');
    expect(await ids()).toEqual(['elsewhere']);
    expect(new URL(page.url()).searchParams.get('namespace')).toBe('other');
    await page.close();
  });

  it('serves the page under a policy that refuses inline script', async () => {
    const page = await browser.context.newPage();
    const answer = (await page.goto(`${srv.url}/ui/jobs`))!;
    const csp = answer.headers()['content-security-policy'];
    for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) expect(csp.split('; ')).toContain(directive);
    expect(csp).not.toContain('unsafe-');
    expect(answer.headers()['x-content-type-options']).toBe('nosniff');
    expect(answer.headers()['referrer-policy']).toBe('no-referrer');
    const outcome = await page.evaluate(async () => {
      const refused = new Promise<string>((resolve) => document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }));
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      return { directive: await refused, inlineRan: window.inlineRan === true };
    });
    expect(outcome).toEqual({ directive: 'script-src-elem', inlineRan: false });
    await page.close();
  });

  it('signs a browser in with the URL of svc ui -authenticate -show-url, once, on the page of the node it names', async () => {
    const [node] = (await api.scheduler<Array<{ ID: string }>>('GET', '/v1/nodes')).body;
    const res = await runCli(['ui', '-authenticate', '-show-url', node.ID.slice(0, 8)], { HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' });
    expect(res.code).toBe(0);
    const url = /^URL for web UI: (\S+)$/m.exec(res.stdout)![1];
    expect(new URL(url).searchParams.get('ott')).toBeTruthy();

    // Session storage is per tab: a new page starts signed out.
    const first = await browser.context.newPage();
    await first.goto(url);
    await first.waitForSelector('[data-testid=drivers] >> text=raw_exec');
    expect(first.url()).toBe(`${srv.url}/ui/clients/${node.ID}`);
    expect(await first.textContent('header .who')).toBe('Token');
    await first.waitForSelector('[data-testid=allocations] >> text=web');
    // Signing out forgets the token: the tab holds none, and the views ask without one.
    await first.click('header .who');
    await first.click('text=Sign out');
    await first.waitForSelector('header .who >> text=Sign in');
    expect(await first.evaluate(() => sessionStorage.length)).toBe(0);
    await first.close();

    const second = await browser.context.newPage();
    await second.goto(url);
    await second.waitForSelector('text=Signing in with the one-time token failed');
    expect(second.url()).not.toContain('ott=');
    expect(await second.textContent('header .who')).toBe('Sign in');
    await second.close();
  });

  it('never put the token in an address, nor sent a cookie, in any request the pages made', () => {
    expect(requests.length).toBeGreaterThan(10);
    const api = requests.filter((r) => new URL(r.url()).pathname.startsWith('/v1/'));
    expect(api.some((r) => r.url().includes('/v1/client/fs/logs/'))).toBe(true);
    for (const r of requests) {
      expect(decodeURIComponent(r.url())).not.toContain(srv.rootToken);
      expect(r.headers().cookie).toBeUndefined();
    }
    // The token went where it belongs: in the header of the API requests made signed in.
    expect(api.filter((r) => r.headers()['x-svc-token'] === srv.rootToken).length).toBeGreaterThan(5);
  });
});
