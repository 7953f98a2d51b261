/**
 * The web UI's nodes pages and topology in a real browser (Debian's chromium) against a real `svc server
 * -dev` with its own node: the node listed and shown with its drivers and a searchable attribute; a drain
 * with a deadline started and stopped from its page, and its eligibility toggled, as the API then reports
 * them; the topology drawing the node with a running allocation, a click on that allocation's part of the
 * picture opening its page; a node named with markup shown as text; a token without node write
 * offered no drain or eligibility controls (which the server would refuse it anyway); and the list of a
 * cluster larger than a page, paged and searched on the server.
 */
import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { layoutTopology } from '../../src/ui/topology/layout.js';
import type { AllocWithResources, NodeWithResources } from '../../src/ui/topology/types.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { makeTempDir } from '../support/server.js';
import { until } from '../support/wait.js';
import { signIn } from '../support/ui.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';

/** The page's globals as the functions handed to page.evaluate use them: they run in the browser. */
declare const document: {
  querySelector(selector: string): { textContent: string | null; getAttribute(name: string): string | null } | null;
  querySelectorAll(selector: string): { length: number };
};
declare const performance: { getEntriesByName(name: string): unknown[] };
declare const window: { notReloaded?: boolean };

let srv: SpawnedServer;
let home: string;
let browser: Browser;
let api: ApiClient;
let devNode: { ID: string; Name: string };
const dialogs: string[] = [];

const HOUR_NS = 3600 * 1e9;

beforeAll(async () => {
  home = await makeTempDir('svc-ui-nodes-home-');
  [srv, browser] = await Promise.all([spawnServer(['-dev', '-port=0'], { HOME: home }), launchBrowser()]);
  api = new ApiClient({ address: srv.url, token: srv.rootToken });
  browser.context.on('page', (p) => p.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss())));
  [devNode] = await until(
    async () => (await api.scheduler<Array<{ ID: string; Name: string; Status: string }>>('GET', '/v1/nodes')).body,
    (nodes) => nodes.length === 1 && nodes[0].Status === 'ready',
    'the -dev node to be ready',
  );
  // Installing chromium on a machine without it takes minutes.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stopServer(srv);
  if (home) await rm(home, { recursive: true, force: true });
});


const readNode = async (id = devNode.ID) => (await api.scheduler<{ DrainStrategy: { Deadline: number; IgnoreSystemJobs: boolean } | null; SchedulingEligibility: string }>('GET', `/v1/node/${id}`)).body;

const cellTexts = (page: Page, table: string, column: number) => page.$$eval(`[data-testid=${table}] tbody tr td:nth-child(${column})`, (cells) => cells.map((c) => c.textContent));

describe('the nodes pages and the topology', () => {
  it('lists the -dev node, and shows its drivers and attributes, searchable', async () => {
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.click('header nav >> text=Clients');
    await page.waitForSelector(`[data-testid=clients] >> text=${devNode.Name}`);
    expect(await cellTexts(page, 'clients', 3)).toEqual(['ready']);
    expect(await cellTexts(page, 'clients', 4)).toEqual(['eligible']);

    // The status filter and the search go to the server as a filter expression.
    await page.selectOption('[data-testid=status-filter]', 'down');
    await page.waitForSelector('text=No nodes match.');
    expect(new URL(page.url()).searchParams.get('status')).toBe('down');
    await page.selectOption('[data-testid=status-filter]', 'ready');
    await page.fill('[data-testid=client-search]', devNode.Name.slice(1, 4).toUpperCase());
    await page.waitForSelector(`[data-testid=clients] >> text=${devNode.Name}`);
    await page.fill('[data-testid=client-search]', 'no-such-node');
    await page.waitForSelector('text=No nodes match.');
    await page.fill('[data-testid=client-search]', devNode.ID.slice(0, 6));
    await page.click(`[data-testid=clients] >> text=${devNode.ID.slice(0, 8)}`);

    await page.waitForSelector('[data-testid=drivers] >> text=raw_exec');
    const rawExec = await page.$$eval('[data-testid=drivers] tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)).find((cells) => cells[0] === 'raw_exec'));
    expect(rawExec).toEqual(['raw_exec', 'yes', 'yes']);
    const attributes = await cellTexts(page, 'attributes', 1);
    expect(attributes.length).toBeGreaterThan(5);
    await page.fill('[data-testid=attributes-search]', 'KERNEL.NAME');
    await page.waitForFunction(() => document.querySelector('[data-testid=attributes] tbody')?.textContent?.includes('cpu.arch') === false);
    expect(await cellTexts(page, 'attributes', 1)).toEqual(['kernel.name']);
    expect(await cellTexts(page, 'attributes', 2)).toEqual(['linux']);
    // A value is searched too.
    await page.fill('[data-testid=attributes-search]', 'linux');
    await page.waitForFunction(() => document.querySelector('[data-testid=attributes] tbody')?.textContent?.includes('cpu.arch') === false);
    expect(await cellTexts(page, 'attributes', 1)).toContain('kernel.name');
    expect(await page.textContent('[data-testid=resources]')).toContain('MHz');
    await page.close();
  });

  it('drains the node with a deadline from its page, as the API then reports, stops the drain, and toggles eligibility', async () => {
    // A batch allocation is left to finish until the deadline: it keeps the drain going while the test looks.
    await api.scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'holder', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 'sleeper', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, KillTimeout: 1_000_000_000 }] }] } } });
    const holderAllocs = () => api.scheduler<Array<{ ClientStatus: string }>>('GET', '/v1/job/holder/allocations').then((r) => r.body);
    await until(holderAllocs, (allocs) => allocs.length === 1 && allocs[0].ClientStatus === 'running', 'the holder job to be running');
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.goto(`${srv.url}/ui/clients/${devNode.ID}`);
    await page.waitForSelector('[data-testid=drain-controls]');

    await page.fill('[data-testid=drain-deadline]', 'soon');
    await page.click('[data-testid=drain-start]');
    await page.waitForSelector('text=Deadline must be a duration');
    expect((await readNode()).DrainStrategy).toBeNull();

    await page.fill('[data-testid=drain-deadline]', '2h');
    await page.check('[data-testid=drain-ignore-system]');
    await page.click('[data-testid=drain-start]');
    await page.waitForSelector('[data-testid=drain-state] >> text=draining since');
    const draining = await readNode();
    expect(draining.DrainStrategy).toMatchObject({ Deadline: 2 * HOUR_NS, IgnoreSystemJobs: true });
    expect(draining.SchedulingEligibility).toBe('ineligible');
    // While it drains, the node cannot be made eligible.
    expect(await page.isDisabled('[data-testid=eligibility-toggle]')).toBe(true);

    await page.click('[data-testid=drain-stop]');
    await page.waitForSelector('[data-testid=drain-state] >> text=last drain canceled');
    expect((await readNode()).DrainStrategy).toBeNull();
    // The node's events say so, newest first.
    await page.waitForSelector('[data-testid=events] >> text=Node drain disabled');
    const messages = await cellTexts(page, 'events', 3);
    expect(messages.indexOf('Node drain disabled')).toBeLessThan(messages.indexOf('Node drain strategy set'));
    expect(messages.indexOf('Node drain disabled')).toBeGreaterThanOrEqual(0);
    expect(await cellTexts(page, 'events', 2)).toContain('Drain');

    // A stopped drain leaves the node ineligible; the toggle makes it eligible and back.
    expect(await page.isChecked('[data-testid=eligibility-toggle]')).toBe(false);
    await page.click('[data-testid=eligibility-toggle]');
    await page.waitForFunction(() => document.querySelector('[data-testid=eligibility]')?.textContent === 'eligible');
    expect((await readNode()).SchedulingEligibility).toBe('eligible');
    await page.click('[data-testid=eligibility-toggle]');
    await page.waitForFunction(() => document.querySelector('[data-testid=eligibility]')?.textContent === 'ineligible');
    expect((await readNode()).SchedulingEligibility).toBe('ineligible');
    await page.click('[data-testid=eligibility-toggle]');
    await page.waitForFunction(() => document.querySelector('[data-testid=eligibility]')?.textContent === 'eligible');
    expect((await readNode()).SchedulingEligibility).toBe('eligible');
    await page.close();
    await api.scheduler('DELETE', '/v1/job/holder', { query: { purge: 'true' } });
    await until(holderAllocs, (allocs) => allocs.every((a) => a.ClientStatus !== 'running' && a.ClientStatus !== 'pending'), 'the holder job to stop');
  });

  it('draws the node with its running allocation on the topology, and a click on the allocation opens it', async () => {
    await api.scheduler('POST', '/v1/jobs', {
      body: { Job: { ID: 'topo', Datacenters: ['dc1'], TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'sleeper', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, Resources: { CPU: 500, MemoryMB: 2048 }, KillTimeout: 1_000_000_000 }] }] } },
    });
    const [alloc] = await until(
      async () => (await api.scheduler<Array<{ ID: string; ClientStatus: string }>>('GET', '/v1/job/topo/allocations')).body,
      (allocs) => allocs.length === 1 && allocs[0].ClientStatus === 'running',
      'the topo job to be running',
    );
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.click('header nav >> text=Topology');
    await page.waitForFunction(() => document.querySelector('[data-testid=topology]')?.getAttribute('data-allocations') === '1');
    expect(await page.getAttribute('[data-testid=topology]', 'data-nodes')).toBe('1');
    expect(await page.evaluate(() => performance.getEntriesByName('svc-topology-drawn').length)).toBe(1);

    // The picture's geometry is a pure function of what the page read and its width: where the allocation is.
    const nodes = (await api.scheduler<NodeWithResources[]>('GET', '/v1/nodes', { query: { resources: 'true' } })).body;
    const allocs = (await api.scheduler<AllocWithResources[]>('GET', '/v1/allocations', { query: { resources: 'true', task_states: 'false', filter: 'ClientStatus == "running" or ClientStatus == "pending"' } })).body;
    const width = await page.$eval('[data-testid=topology]', (c) => c.clientWidth);
    const layout = layoutTopology(nodes, allocs, width);
    const segment = layout.boxes[0].segments.find((s) => s.alloc.ID === alloc.ID)!;
    expect(segment.memW).toBeGreaterThan(4);
    const position = { x: segment.memX + segment.memW / 2, y: layout.boxes[0].memBar.y + layout.boxes[0].memBar.h / 2 };

    await page.hover('[data-testid=topology]', { position });
    await page.waitForSelector('[data-testid=topology-alloc]');
    // The outline over the allocation's memory bar sits where the picture has it (placed through the style object, which the policy allows).
    const canvasAt = (await page.locator('[data-testid=topology]').boundingBox())!;
    const outlines = await page.$$eval('.topology-mark.alloc', (marks) => marks.map((m) => m.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width })));
    expect(outlines.some((r) => Math.abs(r.x - canvasAt.x - segment.memX) < 1 && Math.abs(r.y - canvasAt.y - layout.boxes[0].memBar.y) < 1 && Math.abs(r.width - segment.memW) < 1)).toBe(true);
    const said = await page.textContent('[data-testid=topology-alloc]');
    expect(said).toContain(alloc.ID.slice(0, 8));
    expect(said).toContain('topo');
    expect(said).toContain('CPU 500 MHz · memory 2048 MiB');
    expect(await page.textContent('[data-testid=topology-details]')).toContain(devNode.Name);
    // Off the bars, the point is on the node alone.
    await page.hover('[data-testid=topology]', { position: { x: layout.boxes[0].x + 2, y: layout.boxes[0].y + 2 } });
    await page.waitForFunction(() => document.querySelector('[data-testid=topology-alloc]') === null);

    await page.click('[data-testid=topology]', { position });
    await page.waitForSelector('[data-testid=tasks] >> text=sleeper');
    expect(new URL(page.url()).pathname).toBe(`/ui/allocations/${alloc.ID}`);

    // A job of another namespace shows up on the open page without a reload.
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('[data-testid=topology]')?.getAttribute('data-allocations') === '1');
    await api.scheduler('POST', '/v1/namespace/other', { body: { Name: 'other' } });
    await api.scheduler('POST', '/v1/jobs', {
      query: { namespace: 'other' },
      body: { Job: { ID: 'topo-2', Namespace: 'other', Datacenters: ['dc1'], TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'sleeper', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, Resources: { CPU: 100, MemoryMB: 64 }, KillTimeout: 1_000_000_000 }] }] } },
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=topology]')?.getAttribute('data-allocations') === '2');
    await page.close();
  });

  it('shows a node whose name is markup as text, on the list, its page and the topology', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const fake = fakeNode({ Name: name, Meta: { note: '<b>bold</b>' }, HostVolumes: { '<i>data</i>': { Path: '/srv/<u>data</u>', ReadOnly: true } } });
    await registerFakeNode(api, fake);
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.goto(`${srv.url}/ui/clients`);
    await page.waitForSelector(`[data-testid=clients] >> text=${fake.node.ID.slice(0, 8)}`);
    expect(await page.textContent('[data-testid=clients]')).toContain(name);
    // The dev node runs topo and, in another namespace, topo-2; the new node runs nothing.
    const countOf = (id: string) => page.$eval(`[data-testid=clients] tr:has(a[href$="${id}"]) [data-testid=alloc-count]`, (td) => td.textContent);
    await until(() => countOf(devNode.ID), (n) => n === '2', 'the dev node to count two running allocations');
    expect(await countOf(fake.node.ID)).toBe('0');
    await page.click(`[data-testid=clients] >> text=${fake.node.ID.slice(0, 8)}`);
    await page.waitForSelector('[data-testid=meta] >> text=note');
    expect(await page.textContent('h1')).toContain(name);
    expect(await page.textContent('[data-testid=meta]')).toContain('<b>bold</b>');
    expect(await cellTexts(page, 'host-volumes', 1)).toEqual(['<i>data</i>']);
    expect(await cellTexts(page, 'host-volumes', 2)).toEqual(['/srv/<u>data</u>']);
    expect(await cellTexts(page, 'host-volumes', 3)).toEqual(['read only']);

    // The dev node's page lists what runs there with each allocation's job, of either namespace.
    await page.goto(`${srv.url}/ui/clients/${devNode.ID}`);
    await page.waitForSelector('[data-testid=allocations] >> text=topo-2');
    const rows = await page.$$eval('[data-testid=allocations] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)));
    expect(rows).toEqual(expect.arrayContaining([['topo', 'default'], ['topo-2', 'other']]));

    await page.click('header nav >> text=Topology');
    await page.waitForFunction(() => document.querySelector('[data-testid=topology]')?.getAttribute('data-nodes') === '2');
    const nodes = (await api.scheduler<NodeWithResources[]>('GET', '/v1/nodes', { query: { resources: 'true' } })).body;
    const width = await page.$eval('[data-testid=topology]', (c) => c.clientWidth);
    const box = layoutTopology(nodes, [], width).boxes.find((b) => b.node.ID === fake.node.ID)!;
    await page.hover('[data-testid=topology]', { position: { x: box.x + 2, y: box.y + 2 } });
    await page.waitForSelector(`[data-testid=topology-details] >> text=${name}`);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('main b, main i:not(.swatch), main u').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('offers no drain or eligibility controls to a token without node write, which the server would refuse', async () => {
    await api.secrets('PUT', 'sys/policies/acl/node-reader', { body: { policy: 'node { policy = "read" }\nnamespace "*" { policy = "read" }' } });
    const created = await api.secrets('POST', 'auth/token/create', { body: { policies: ['node-reader'], ttl: '1h' } });
    const secret = (created as unknown as { auth: { client_token: string } }).auth.client_token;
    const reader = new ApiClient({ address: srv.url, token: secret });
    await expect(reader.scheduler('POST', `/v1/node/${devNode.ID}/drain`, { body: { DrainSpec: { Deadline: HOUR_NS }, MarkEligible: false } })).rejects.toMatchObject({ statusCode: 403 });

    const page = await browser.context.newPage();
    await signIn(page, srv.url, secret);
    await page.goto(`${srv.url}/ui/clients/${devNode.ID}`);
    await page.waitForSelector('[data-testid=drivers] >> text=raw_exec');
    await page.waitForSelector('[data-testid=node-actions-denied]');
    expect(await page.locator('[data-testid=drain-controls]').count()).toBe(0);
    expect(await page.locator('[data-testid=eligibility-toggle]').count()).toBe(0);
    await page.close();

    // The same page with the management token offers them: the hint above is the token's, not the page's.
    const root = await browser.context.newPage();
    await signIn(root, srv.url, srv.rootToken!);
    await root.goto(`${srv.url}/ui/clients/${devNode.ID}`);
    await root.waitForSelector('[data-testid=drain-controls]');
    expect(await root.locator('[data-testid=node-actions-denied]').count()).toBe(0);
    await root.close();
  });

  it('lists nodes as they join, and pages through a large cluster fifty at a time, filtered on the server', async () => {
    const page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.goto(`${srv.url}/ui/clients?search=rack-`);
    await page.waitForSelector('text=No nodes match.');
    // Set in this document: a reload would lose it.
    await page.evaluate(() => (window.notReloaded = true));
    for (let i = 0; i < 55; i++) await registerFakeNode(api, fakeNode({ Name: `rack-${String(i).padStart(2, '0')}` }));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=clients] tbody tr').length === 50);
    expect(await page.evaluate(() => window.notReloaded)).toBe(true);
    expect(await cellTexts(page, 'clients', 2)).toHaveLength(50);
    const first = new Set(await cellTexts(page, 'clients', 2));
    await page.click('.pager >> text=Next page');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=clients] tbody tr').length === 5);
    const second = await cellTexts(page, 'clients', 2);
    expect(second.every((name) => name?.startsWith('rack-') && !first.has(name))).toBe(true);
    await page.click('.pager >> text=First page');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=clients] tbody tr').length === 50);
    // Typed a key at a time, as a user types: the address takes the whole text once typing pauses.
    await page.fill('[data-testid=client-search]', '');
    await page.locator('[data-testid=client-search]').pressSequentially('RACK-4');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=clients] tbody tr').length === 10);
    expect(new URL(page.url()).searchParams.get('search')).toBe('RACK-4');
    expect(await page.inputValue('[data-testid=client-search]')).toBe('RACK-4');
    expect((await cellTexts(page, 'clients', 2)).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `rack-4${i}`));
    await page.close();
  });
});
