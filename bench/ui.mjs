// The ui section: what the web UI's first page costs to fetch (its script, the chunks it preloads and
// its styles, gzipped as the server sends them; target ≤ 300 KB), what each page loaded later and the
// terminal add to it (the chunks only they import, the terminal's stylesheet with it), and the time
// from navigation to the first painted jobs list on a dev server holding 1,000 jobs, in headless
// Chromium, read from the browser's own clock (performance.now() at the first frame after the list is in the page) and its
// first-contentful-paint entry. Each run is a new tab, so nothing is in memory; assets come from the
// browser's cache after the first run, as they would for a returning user. Then how many requests a
// job's page makes while it sits open and nothing changes. Last, the topology: the time from navigation
// to the first drawn picture of 5,000 nodes (mock-driver nodes that join and heartbeat through the node
// API from a process of their own, as bench/node-fleet.mjs does) holding 3,000 allocations, read from the
// mark the page leaves when its canvas is drawn (BENCH_UI_TOPOLOGY_NODES, BENCH_UI_TOPOLOGY_ALLOCS).
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { call, load, median, startChild, startDevServer, table } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
const UI = path.join(REPO, 'dist/ui');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The files index.html makes the browser fetch before the first page can show: script, preloads, styles. */
async function firstPageFiles() {
  const html = await readFile(path.join(UI, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/ui\/assets\/([^"]+)"/g)].map((m) => m[1]);
}

const gzipped = (body) => gzipSync(body, { level: 9 }).length;

/**
 * The assets' import graph, read from the built files themselves: for each script, the files it imports
 * statically (fetched with it) and the ones it imports with import() (fetched when that code runs).
 */
async function importGraph() {
  const graph = new Map();
  for (const name of await readdir(path.join(UI, 'assets'))) {
    const body = await readFile(path.join(UI, 'assets', name));
    const text = name.endsWith('.js') ? body.toString() : '';
    graph.set(name, {
      gz: gzipped(body),
      size: body.length,
      statics: [...text.matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)].map((m) => m[1]),
      dynamics: [...text.matchAll(/import\(\s*"\.\/([^"]+)"\s*\)/g)].map((m) => m[1]),
      // A stylesheet the code links when it runs (the terminal's), named by its address.
      links: [...text.matchAll(/"\/ui\/assets\/([^"]+\.css)"/g)].map((m) => m[1]),
    });
  }
  return graph;
}

/** The files fetched along with `roots`: each one, the scripts they import statically and the stylesheets they link. */
function closure(graph, roots) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !graph.has(name)) return;
    seen.add(name);
    for (const next of [...graph.get(name).statics, ...graph.get(name).links]) visit(next);
  };
  roots.forEach(visit);
  return seen;
}

async function bundleSizes() {
  const graph = await importGraph();
  const first = await firstPageFiles();
  const rows = [];
  let total = 0;
  for (const name of first) {
    const { size, gz } = graph.get(name);
    total += gz;
    rows.push([name, kb(size), kb(gz)]);
  }
  rows.push(['first page, total', '', kb(total)]);
  console.log('\nWeb UI: what the first page fetches (target ≤ 300 KB gzipped)\n');
  console.log(table(['file', 'size', 'gzipped'], rows));

  // Each chunk loaded with import(): what opening it fetches beyond what is already there (its own file
  // and the shared chunks only it and its kind need), as a user who came in through the jobs list pays it.
  const loaded = closure(graph, first);
  // Reached from the first page only, so a file an earlier build left in assets/ is not counted.
  const lazy = new Set();
  const reach = (files) => {
    for (const file of closure(graph, files)) {
      for (const next of graph.get(file).dynamics) {
        if (lazy.has(next) || !graph.has(next)) continue;
        lazy.add(next);
        reach([next]);
      }
    }
  };
  reach(first);
  const lazyRows = [...lazy].sort().map((name) => {
    const extra = [...closure(graph, [name])].filter((f) => !loaded.has(f));
    const gz = extra.reduce((sum, f) => sum + graph.get(f).gz, 0);
    const what = name.startsWith('terminal-') ? 'the terminal (xterm.js), when a terminal first opens' : `the ${name.replace(/-[A-Z0-9]+\.js$/, '')} page, when first opened`;
    return [name, what, extra.length === 1 ? 'nothing' : extra.filter((f) => f !== name).join(', '), kb(gz)];
  });
  console.log('\nWeb UI: what each lazily loaded chunk fetches beyond the first page (gzipped)\n');
  console.log(table(['chunk', 'loaded with', 'and besides itself', 'gzipped'], lazyRows));
}

async function jobsListPaint({ bin, env, jobs, runs, idleSeconds }) {
  if (!existsSync(CHROMIUM)) {
    console.log(`\nWeb UI: time to the first painted jobs list: not measured (${CHROMIUM} is missing: apt-get install chromium)`);
    return;
  }
  const { chromium } = await import('playwright-core');
  const server = await startDevServer(bin, env, { args: ['-client=false'] });
  const profile = await mkdtemp(path.join(tmpdir(), 'svc-bench-chromium-'));
  let context;
  try {
    const job = (i) => ({ ID: `ui-bench-${String(i).padStart(4, '0')}`, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] });
    await load(server.url, jobs, 8, (i) => ({ method: 'POST', path: '/v1/jobs', token: server.token, body: { Job: job(i) }, expect: 200 }));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
    // The token as a signed-in tab holds it; and a mark at the first frame after the list is in the page.
    await context.addInitScript((token) => {
      sessionStorage.setItem('svc.token', token);
      const seen = new MutationObserver(() => {
        if (!document.querySelector('[data-testid=jobs] tbody tr')) return;
        seen.disconnect();
        requestAnimationFrame(() => (window.jobsPaintedAt = performance.now()));
      });
      seen.observe(document, { childList: true, subtree: true });
    }, server.token);
    const painted = [];
    const fcp = [];
    for (let run = 0; run < runs; run++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/ui/jobs`);
      await page.waitForFunction(() => window.jobsPaintedAt !== undefined);
      const t = await page.evaluate(() => ({ painted: window.jobsPaintedAt, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN }));
      painted.push(t.painted);
      fcp.push(t.fcp);
      await page.close();
    }
    const rows = [
      ['first run (assets fetched)', `${painted[0].toFixed(0)} ms`, `${fcp[0].toFixed(0)} ms`],
      [`median of ${runs - 1} later runs (assets cached)`, `${median(painted.slice(1)).toFixed(0)} ms`, `${median(fcp.slice(1)).toFixed(0)} ms`],
    ];
    console.log(`\nWeb UI: navigation to the first painted jobs list, ${jobs} jobs on the server (headless Chromium)\n`);
    console.log(table(['run', 'jobs list painted', 'first contentful paint'], rows));

    // A job's page left open: its views wait on blocking queries, so it asks again only when the job
    // changes or a wait runs out, not on a timer.
    const page = await context.newPage();
    let asked = 0;
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/v1/') && asked++);
    await page.goto(`${server.url}/ui/jobs/${encodeURIComponent(`${job(0).ID}@default`)}`);
    await page.waitForSelector('[data-testid=task-groups] tbody tr');
    const settled = asked;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = asked - settled;
    await page.close();
    console.log(`\nWeb UI: a job's page open for ${idleSeconds} s with nothing changing: ${settled} requests to load it, ${idle} more while open (target: none but the blocking queries' renewals)`);
  } finally {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
    await server.stop();
  }
}

const TOPOLOGY_JOB = 100;

/** How long the fleet is given to take the topology's allocations: a placement that falls short never gets there. */
const PLACEMENT_DEADLINE_MS = 180_000;

/**
 * Resolves once the server holds `count` allocations, read every half second (a bench may poll; the UI
 * may not); throws, saying how many it holds, when they are not there by the deadline.
 */
async function allocationsPlaced(server, count) {
  const deadline = Date.now() + PLACEMENT_DEADLINE_MS;
  for (;;) {
    const { body } = await call(server.url, server.token, 'GET', '/v1/allocations?task_states=false');
    if (body.length >= count) return body.length;
    if (Date.now() > deadline) {
      throw new Error(`the topology bench wanted ${count} allocations placed and the server holds ${body.length} after ${PLACEMENT_DEADLINE_MS / 1000} s: the fleet has too little room (see the jobs' evaluations for what did not fit)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function topologyPaint({ bin, env, nodes, allocs, runs }) {
  if (!existsSync(CHROMIUM)) {
    console.log(`\nWeb UI: time to the first drawn topology: not measured (${CHROMIUM} is missing: apt-get install chromium)`);
    return;
  }
  const { chromium } = await import('playwright-core');
  const server = await startDevServer(bin, env, { args: ['-client=false'] });
  const fleet = startChild(path.join(HERE, 'node-fleet.mjs'), { args: [server.url, '1'] });
  const profile = await mkdtemp(path.join(tmpdir(), 'svc-bench-chromium-'));
  let context;
  try {
    const registerStart = performance.now();
    await fleet.ask('register', { count: nodes, token: server.token });
    const registerMs = performance.now() - registerStart;
    const jobs = Math.ceil(allocs / TOPOLOGY_JOB);
    const job = (i) => ({
      ID: `topology-${String(i).padStart(3, '0')}`,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Count: Math.min(TOPOLOGY_JOB, allocs - i * TOPOLOGY_JOB), Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100 + 50 * (i % 8), MemoryMB: 256 * (1 + (i % 4)) } }] }],
    });
    await load(server.url, jobs, 4, (i) => ({ method: 'POST', path: '/v1/jobs', token: server.token, body: { Job: job(i) }, expect: 200 }));
    const placed = await allocationsPlaced(server, allocs);
    const nodesBody = await call(server.url, server.token, 'GET', '/v1/nodes?resources=true');
    const allocsBody = await call(server.url, server.token, 'GET', `/v1/allocations?resources=true&task_states=false&filter=${encodeURIComponent('ClientStatus == "running" or ClientStatus == "pending"')}`);
    const bytes = Buffer.byteLength(JSON.stringify(nodesBody.body)) + Buffer.byteLength(JSON.stringify(allocsBody.body));

    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 } });
    await context.addInitScript((token) => sessionStorage.setItem('svc.token', token), server.token);
    const drawn = [];
    const render = [];
    let hover;
    for (let run = 0; run < runs; run++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/ui/topology`);
      await page.waitForFunction(() => performance.getEntriesByName('svc-topology-drawn').length > 0, undefined, { timeout: 120_000 });
      const t = await page.evaluate(() => ({ drawn: performance.getEntriesByName('svc-topology-drawn')[0].startTime, render: performance.getEntriesByName('svc-topology-render')[0].duration }));
      drawn.push(t.drawn);
      render.push(t.render);
      if (run === runs - 1) {
        // Pointing across the picture: each move hit-tests and repaints one box's outline; the gaps
        // between frames say whether that keeps up with the screen.
        hover = await page.evaluate(async () => {
          const canvas = document.querySelector('[data-testid=topology]');
          const box = canvas.getBoundingClientRect();
          const moves = 200;
          const gaps = [];
          let last = await new Promise((resolve) => requestAnimationFrame(resolve));
          for (let i = 0; i < moves; i++) {
            canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + ((i * 37) % box.width), clientY: box.top + ((i * 53) % Math.min(box.height, 800)), bubbles: true }));
            const now = await new Promise((resolve) => requestAnimationFrame(resolve));
            gaps.push(now - last);
            last = now;
          }
          gaps.sort((a, b) => a - b);
          const dataset = document.querySelector('[data-testid=topology]').dataset;
          return { moves, median: gaps[Math.floor(moves / 2)], max: gaps[moves - 1], nodes: dataset.nodes, allocs: dataset.allocations };
        });
      }
      await page.close();
    }
    console.log(`\nWeb UI: navigation to the first drawn topology, ${nodes} nodes (registered in ${(registerMs / 1000).toFixed(1)} s) holding ${placed} allocations, ${kb(bytes)} of JSON read (headless Chromium, 1400 px wide)\n`);
    console.log(
      table(
        ['run', 'topology drawn', 'of which layout and drawing'],
        [
          ['first run (assets fetched)', `${drawn[0].toFixed(0)} ms`, `${render[0].toFixed(0)} ms`],
          [`median of ${runs - 1} later runs (assets cached)`, `${median(drawn.slice(1)).toFixed(0)} ms`, `${median(render.slice(1)).toFixed(0)} ms`],
        ],
      ),
    );
    console.log(`\nWeb UI: pointing across the topology (${hover.nodes} nodes, ${hover.allocs} allocations drawn): ${hover.moves} moves, a frame every ${hover.median.toFixed(1)} ms (median), at most ${hover.max.toFixed(1)} ms (60 Hz is 16.7 ms)`);
  } finally {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
    await fleet.stop();
    await server.stop();
  }
}

export async function uiBench({ bin, env, jobs = 1000, runs = 6, idleSeconds = 60 }) {
  if (!existsSync(path.join(UI, 'index.html'))) {
    console.log('\nWeb UI: not measured (dist/ui is missing: npm run build)');
    return;
  }
  await bundleSizes();
  await jobsListPaint({ bin, env, jobs, runs, idleSeconds });
  await topologyPaint({
    bin,
    env,
    nodes: Number(process.env.BENCH_UI_TOPOLOGY_NODES ?? 5000),
    allocs: Number(process.env.BENCH_UI_TOPOLOGY_ALLOCS ?? 3000),
    runs,
  });
}
