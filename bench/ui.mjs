// The ui section: what the web UI's first page costs to fetch (its script, the chunks it preloads and
// its styles, gzipped as the server sends them; target ≤ 300 KB), and the time from navigation to the
// first painted jobs list on a dev server holding 1,000 jobs, in headless Chromium, read from the
// browser's own clock (performance.now() at the first frame after the list is in the page) and its
// first-contentful-paint entry. Each run is a new tab, so nothing is in memory; assets come from the
// browser's cache after the first run, as they would for a returning user. Then how many requests a
// job's page makes while it sits open and nothing changes.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { load, median, startDevServer, table } from './lib.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const UI = path.join(REPO, 'dist/ui');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The files index.html makes the browser fetch before the first page can show: script, preloads, styles. */
async function firstPageFiles() {
  const html = await readFile(path.join(UI, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/ui\/assets\/([^"]+)"/g)].map((m) => m[1]);
}

async function bundleSizes() {
  const rows = [];
  let total = 0;
  for (const name of await firstPageFiles()) {
    const body = await readFile(path.join(UI, 'assets', name));
    const gz = gzipSync(body, { level: 9 }).length;
    total += gz;
    rows.push([name, kb(body.length), kb(gz)]);
  }
  rows.push(['first page, total', '', kb(total)]);
  console.log('\nWeb UI: what the first page fetches (target ≤ 300 KB gzipped)\n');
  console.log(table(['file', 'size', 'gzipped'], rows));
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

export async function uiBench({ bin, env, jobs = 1000, runs = 6, idleSeconds = 60 }) {
  if (!existsSync(path.join(UI, 'index.html'))) {
    console.log('\nWeb UI: not measured (dist/ui is missing: npm run build)');
    return;
  }
  await bundleSizes();
  await jobsListPaint({ bin, env, jobs, runs, idleSeconds });
}
