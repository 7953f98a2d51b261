// `npm run screenshots`: pictures of the web UI's main pages for the docs, written to docs/screenshots/.
// It builds nothing: it serves the dist/ that `npm run build` made. A real `bin/svc server -dev -port=0`
// in a HOME of its own is filled through the public API with what a small team's cluster holds (jobs of
// each type and state running /bin/sh under raw_exec on the -dev node, a second namespace, a policy, an
// entity, a cloud auth role, a KV secret), then Debian's chromium, driven by playwright-core, signs in
// on the token page and visits each page at 1280×800. Each picture is taken once the page shows what it
// is about (its own elements, never a fixed wait), so a re-run gives the same pictures but for the
// times and IDs in them. Everything it starts is stopped, and its directories removed, however it ends.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, startDevServer } from '../bench/lib.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/svc');
// `npm run screenshots -- <dir>` writes them elsewhere (the script's own test does).
const OUT = path.resolve(process.argv[2] ?? path.join(REPO, 'docs/screenshots'));
// The browser and flags test/support/browser.ts launches: Debian's chromium, nothing phoning home.
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const VIEWPORT = { width: 1280, height: 800 };

const sh = (script) => ({ command: '/bin/sh', args: ['-c', script] });

/** A web front end: it logs a request line a second, as a server under a health check does. */
const WEB_SCRIPT = [
  'echo "web $NOMAD_META_release listening on :$NOMAD_PORT_http"',
  'i=0; while :; do i=$((i+1)); echo "$(date -u +%H:%M:%S) GET /healthz 200 0.4ms (request $i)"; sleep 1; done',
].join('\n');

const CACHE_SCRIPT = 'echo "cache ready, 256 MB"; while :; do sleep 10; echo "evicted 0 keys"; done';

const webJob = (release, count) => ({
  ID: 'web',
  Name: 'web',
  Datacenters: ['dc1'],
  Meta: { team: 'storefront' },
  Update: { MaxParallel: 1, MinHealthyTime: 1e9, HealthyDeadline: 60e9, ProgressDeadline: 120e9 },
  TaskGroups: [
    {
      Name: 'frontend',
      Count: count,
      Meta: { release },
      Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
      Tasks: [{ Name: 'server', Driver: 'raw_exec', Config: sh(WEB_SCRIPT), KillTimeout: 1e9, Resources: { CPU: 200, MemoryMB: 128 } }],
    },
    {
      Name: 'cache',
      Count: 1,
      Tasks: [{ Name: 'memo', Driver: 'raw_exec', Config: sh(CACHE_SCRIPT), KillTimeout: 1e9, Resources: { CPU: 100, MemoryMB: 256 } }],
    },
  ],
});

/** The run page's job file: the web job's next release, one more instance. */
const NEXT_RELEASE = `job "web" {
  datacenters = ["dc1"]

  meta {
    team = "storefront"
  }

  update {
    max_parallel      = 1
    min_healthy_time  = "1s"
    healthy_deadline  = "1m"
    progress_deadline = "2m"
  }

  group "frontend" {
    count = 3

    meta {
      release = "2026.12.3"
    }

    network {
      port "http" {}
    }

    task "server" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", ${JSON.stringify(WEB_SCRIPT)}]
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }

  group "cache" {
    task "memo" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", ${JSON.stringify(CACHE_SCRIPT)}]
      }

      resources {
        cpu    = 100
        memory = 256
      }
    }
  }
}
`;

const JOBS = [
  { namespace: 'default', job: webJob('2026.12.1', 1) },
  {
    namespace: 'default',
    job: {
      ID: 'report',
      Type: 'batch',
      Datacenters: ['dc1'],
      ParameterizedJob: { Payload: 'optional', MetaRequired: ['customer'], MetaOptional: ['format'] },
      TaskGroups: [{ Name: 'report', Tasks: [{ Name: 'render', Driver: 'raw_exec', Config: sh('echo "rendering the $NOMAD_META_format report for $NOMAD_META_customer"') }] }],
    },
  },
  {
    namespace: 'default',
    job: {
      ID: 'nightly-backup',
      Type: 'batch',
      Datacenters: ['dc1'],
      Periodic: { Enabled: true, Spec: '0 3 * * *', TimeZone: 'UTC', ProhibitOverlap: true },
      TaskGroups: [{ Name: 'backup', Tasks: [{ Name: 'dump', Driver: 'raw_exec', Config: sh('echo "backup written"') }] }],
    },
  },
  {
    namespace: 'default',
    job: {
      ID: 'gpu-trainer',
      Datacenters: ['dc1'],
      // No node of the -dev cluster runs Plan 9: the placement fails, and the job page says why.
      Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'plan9', Operand: '=' }],
      TaskGroups: [{ Name: 'trainer', Count: 2, Tasks: [{ Name: 'train', Driver: 'raw_exec', Config: sh('exec sleep 3600'), Resources: { CPU: 500, MemoryMB: 256 } }] }],
    },
  },
  {
    namespace: 'platform',
    job: {
      ID: 'metrics-agent',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'agent', Tasks: [{ Name: 'collect', Driver: 'raw_exec', Config: sh('while :; do echo "scraped 12 targets"; sleep 5; done'), KillTimeout: 1e9, Resources: { CPU: 100, MemoryMB: 64 } }] }],
    },
  },
];

const POLICY = `# Deploys the storefront: runs and scales its jobs, reads their logs and its secrets.
namespace "default" {
  policy       = "write"
  capabilities = ["alloc-exec"]
}

path "secret/data/storefront/*" {
  capabilities = ["read", "list"]
}

path "auth/token/lookup-self" {
  capabilities = ["read"]
}
`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `read` every 200 ms until `done` holds of its answer (this script may poll; the UI does not). */
async function until(what, read, done, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(200);
  }
}

async function fill(server) {
  const api = (method, p, body) => call(server.url, server.token, method, p, body).then((r) => r.body);
  await api('POST', '/v1/namespace/platform', { Name: 'platform', Description: 'Shared infrastructure agents' });
  for (const { namespace, job } of JOBS) await api('POST', `/v1/jobs?namespace=${namespace}`, { Job: job });

  // A second version, rolled out as a deployment, so the versions tab has a difference to show.
  const deployment = async () => api('GET', '/v1/job/web/deployment');
  await until('the web job\'s first deployment', deployment, (d) => d?.Status === 'successful');
  await api('POST', '/v1/jobs', { Job: webJob('2026.12.2', 2) });
  await until('the web job\'s second deployment', deployment, (d) => d?.JobVersion === 1 && d.Status === 'successful');
  await api('POST', '/v1/job/web/versions/v2/tag', { Version: 1, Description: 'two instances behind the balancer' });

  await api('POST', '/v1/job/report/dispatch', { Meta: { customer: 'acme', format: 'pdf' }, Payload: Buffer.from('{"quarter":"Q4"}').toString('base64') });
  await until('the failed placement evaluated', () => api('GET', '/v1/job/gpu-trainer/evaluations'), (evals) => evals.some((e) => e.Status === 'complete' && e.FailedTGAllocs));
  await until('the metrics agent running', () => api('GET', '/v1/job/metrics-agent/allocations?namespace=platform'), (allocs) => allocs.some((a) => a.ClientStatus === 'running'));

  await api('PUT', '/v1/sys/policies/acl/storefront-deployer', { policy: POLICY });
  await api('POST', '/v1/auth/cloud/role/storefront-ci', {
    auth_type: 'iam',
    bound_iam_principal_arn: ['arn:aws:iam::123456789012:role/storefront-ci'],
    resolve_cloud_unique_ids: false,
    token_policies: ['storefront-deployer'],
    token_ttl: '1h',
    token_max_ttl: '4h',
  });
  const entity = await api('POST', '/v1/identity/entity', { name: 'storefront-ci', policies: ['storefront-deployer'], metadata: { team: 'storefront', owner: 'platform@example.com' } });
  const auth = await api('GET', '/v1/sys/auth');
  await api('POST', '/v1/identity/entity-alias', { name: 'arn:aws:iam::123456789012:role/storefront-ci', canonical_id: entity.data.id, mount_accessor: (auth.data ?? auth)['cloud/'].accessor });
  await api('POST', '/v1/secret/data/storefront/database', { data: { username: 'storefront', password: 'example-only-0', host: 'db.internal:5432' } });
  await api('POST', '/v1/secret/data/storefront/database', { data: { username: 'storefront', password: 'example-only-1', host: 'db.internal:5432' } });
  await api('POST', '/v1/secret/data/storefront/stripe', { data: { api_key: 'example-only' } });

  const allocs = await api('GET', '/v1/job/web/allocations');
  return { webAlloc: allocs.find((a) => a.TaskGroup === 'frontend' && a.ClientStatus === 'running' && a.JobVersion === 1).ID };
}

async function shoot(browser, server, { webAlloc }) {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  const written = [];
  // The viewport only, but for a page whose subject is below its first screen (fullPage).
  const snap = async (name, { fullPage = false } = {}) => {
    const file = path.join(OUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage, animations: 'disabled', caret: 'hide' });
    written.push([name, (await stat(file)).size]);
  };
  const visit = async (address, ready) => {
    await page.goto(`${server.url}/ui${address}`);
    await page.waitForSelector(ready);
  };
  const textIn = (selector, text) => page.waitForFunction(([s, t]) => (document.querySelector(s)?.textContent ?? '').includes(t), [selector, text]);

  // Signed in as a user is: the token typed on the token page, kept in the tab's session storage.
  await visit('/settings/tokens', '#secret');
  await page.fill('#secret', server.token);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=signed-in]');

  await page.click('header nav >> text=Jobs');
  await page.waitForSelector('[data-testid=jobs] >> text=metrics-agent');
  await page.waitForSelector('[data-testid=jobs] >> text=gpu-trainer');
  await snap('jobs');

  const job = (id, tab) => `/jobs/${encodeURIComponent(`${id}@default`)}${tab ? `?tab=${tab}` : ''}`;
  await visit(job('web'), '[data-testid=task-groups] tr[data-group=frontend]');
  await textIn('[data-testid=running-frontend]', '2');
  await textIn('[data-testid=task-groups] tr[data-group=frontend] .health', 'healthy');
  await snap('job');

  await visit(job('web', 'versions'), '[data-testid=versions] tr[data-version="1"]');
  await page.waitForSelector('[data-testid=diff] [data-diff-field=Count]');
  await snap('job-versions');

  await visit(job('gpu-trainer', 'evaluations'), '[data-testid=evaluations] [data-testid=placement-failure-trainer]');
  await snap('job-placement-failure');

  await visit('/jobs/run', '[data-testid=run-spec]');
  await page.fill('[data-testid=run-spec]', NEXT_RELEASE);
  await page.click('[data-testid=run-plan]');
  await page.waitForSelector('[data-testid=plan] [data-testid=diff]');
  // Typing leaves the file scrolled to its end; a reader starts at its top.
  await page.$eval('[data-testid=run-spec]', (area) => (area.scrollTop = 0));
  await snap('job-plan', { fullPage: true });

  const alloc = `/allocations/${encodeURIComponent(webAlloc)}`;
  await visit(alloc, '[data-testid=events-server]');
  await textIn('[data-testid=log]', 'request 3)');
  await snap('allocation', { fullPage: true });

  await visit(`${alloc}?tab=exec`, '[data-testid=exec-open]');
  await page.click('[data-testid=exec-open]');
  await textIn('[data-testid=terminal-status]', 'Connected');
  await page.click('[data-testid=terminal] .xterm');
  // The marker is printed by the shell, so the wait ends on the command's output, not on its echo.
  await page.keyboard.type('echo "$NOMAD_JOB_NAME/$NOMAD_TASK_NAME on $(uname -s)"; ls -l "$NOMAD_ALLOC_DIR"; echo "done: $((6*7))"');
  await page.keyboard.press('Enter');
  await textIn('[data-testid=terminal] .xterm-rows', 'done: 42');
  await snap('exec');

  await visit('/clients', '[data-testid=clients] tbody tr');
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=alloc-count]')?.textContent?.trim() ?? ''));
  await snap('clients');

  await page.click('[data-testid=clients] tbody tr a');
  await page.waitForSelector('[data-testid=drivers]');
  await page.waitForSelector('[data-testid=allocations] tbody tr');
  await snap('client');

  await page.goto(`${server.url}/ui/topology`);
  await page.waitForFunction(() => performance.getEntriesByName('svc-topology-drawn').length > 0);
  await snap('topology');

  await visit('/secrets/policies/storefront-deployer', '#policy-text');
  await snap('secrets-policy');

  await visit('/secrets/methods/cloud/roles/storefront-ci', '#field-token_ttl');
  await snap('secrets-cloud-role');

  await visit('/secrets/identity', '[data-testid=entities] >> text=storefront-ci');
  await snap('secrets-identity');

  await visit(`/secrets/kv/secret?path=${encodeURIComponent('storefront/database')}`, '[data-testid=kv-data]');
  await page.waitForSelector('[data-testid=kv-version-2]');
  await page.click('[data-testid=kv-data] tr:has([data-testid=kv-value-host]) >> text=Reveal');
  await textIn('[data-testid=kv-value-host]', 'db.internal');
  await snap('secrets-kv');

  await page.close();
  return written;
}

async function main() {
  for (const built of ['dist/main.cjs', 'dist/ui/index.html']) {
    if (!existsSync(path.join(REPO, built))) throw new Error(`${built} is missing: run \`npm run build\` first (this script serves what it built)`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const { chromium } = await import('playwright-core');

  const home = await mkdtemp(path.join(tmpdir(), 'svc-screenshots-home-'));
  const profile = await mkdtemp(path.join(tmpdir(), 'svc-screenshots-chromium-'));
  let starting;
  let launching;
  // Once, whether the run ends, fails or is interrupted (a signal's cleanup and the run's own may overlap).
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      // A browser or a server still starting when a signal came is waited for, so that it is stopped too
      // (and the browser writes no more into its profile once that is removed).
      await (await launching?.catch(() => undefined))?.close().catch(() => {});
      await (await starting?.catch(() => undefined))?.stop();
      await rm(profile, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    })());
  // Ended from the terminal (Ctrl-C) or by a supervisor: the server and the browser go too.
  const onSignal = (signal) => void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    starting = startDevServer(BIN, { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' });
    const server = await starting;
    // Playwright's own signal handlers exit once the browser is closed, before the server is stopped: ours close both.
    launching = chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false, viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    const browser = await launching;
    const made = await fill(server);
    await mkdir(OUT, { recursive: true });
    for (const [name, size] of await shoot(browser, server, made)) console.log(`${path.relative(process.cwd(), path.join(OUT, name))}.png  ${(size / 1024).toFixed(0)} KB`);
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(`screenshots: ${err.message}`);
  process.exitCode = 1;
});
