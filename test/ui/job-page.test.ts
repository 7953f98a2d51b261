/**
 * The web UI's job pages in a real browser (Debian's chromium) against a real `svc server -dev` with its
 * own node: a job file with an error shown at its line; a service job planned (a create) and run from
 * the run page, landing on its page; its deployment watched to success; its group scaled; a second
 * version registered, versions 0 and 1 compared, version 0 reverted to; the job stopped, started again,
 * then stopped and purged; a parameterized batch job dispatched with meta and a payload; a job given
 * as the API's JSON and named with markup shown as text; a periodic launch forced; placement failures
 * explained; a canary deployment paused, resumed, promoted and the next failed; and a token that may
 * only read jobs offered none of the controls.
 */
import { rm } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { makeTempDir } from '../support/server.js';
import { signIn, waitForText } from '../support/ui.js';
import { until } from '../support/wait.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';

/** The page's globals as the functions handed to page.evaluate use them: they run in the browser. */
declare const document: { querySelector(selector: string): { textContent: string | null } | null; querySelectorAll(selector: string): { length: number } };

let srv: SpawnedServer;
let home: string;
let browser: Browser;
let api: ApiClient;
const dialogs: string[] = [];
/** API requests sent and not yet answered in full. */
const pending = new Set<Request>();

beforeAll(async () => {
  home = await makeTempDir('svc-ui-job-home-');
  [srv, browser] = await Promise.all([spawnServer(['-dev', '-port=0'], { HOME: home }), launchBrowser()]);
  api = new ApiClient({ address: srv.url, token: srv.rootToken });
  browser.context.on('page', (p) => p.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss())));
  browser.context.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/v1/') && pending.add(r)));
  browser.context.on('requestfinished', (r) => pending.delete(r));
  browser.context.on('requestfailed', (r) => pending.delete(r));
  // Installing chromium on a machine without it takes minutes.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stopServer(srv);
  if (home) await rm(home, { recursive: true, force: true });
});

/** A service job on the -dev node, rolled out one allocation at a time, healthy a second after it runs. */
const serviceJob = (opts: { name?: string; meta?: string } = {}) => `job "web" {
  datacenters = ["dc1"]
${opts.name ? `  name = ${JSON.stringify(opts.name)}\n` : ''}
  update {
    max_parallel      = 1
    min_healthy_time  = "1s"
    healthy_deadline  = "1m"
    progress_deadline = "2m"
  }

  group "web" {
    count = 1
${opts.meta ? `    meta {\n      release = "${opts.meta}"\n    }\n` : ''}
    task "server" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 3600"]
      }
    }
  }
}
`;


const text = (page: Page, selector: string) => page.textContent(selector).then((t) => (t ?? '').trim());


const jobUrl = (id: string, tab?: string) => `${srv.url}/ui/jobs/${encodeURIComponent(`${id}@default`)}${tab ? `?tab=${tab}` : ''}`;

/** Plans the run page's job file and waits for the plan (or the error) to show. */
async function plan(page: Page, source: string, variables = ''): Promise<void> {
  await page.fill('[data-testid=run-spec]', source);
  await page.fill('[data-testid=run-variables]', variables);
  await page.click('[data-testid=run-plan]');
  await page.waitForSelector('[data-testid=plan], [data-testid=run-error]');
}

/** The API requests a page has open once it has settled, as path?query, sorted: blocking queries only, or it is not settled. */
const settledRequests = (on: Page, count: number) =>
  until(
    async () =>
      [...pending]
        .filter((r) => r.frame().page() === on)
        .map((r) => {
          const u = new URL(r.url());
          return `${u.pathname}?${u.searchParams}`;
        })
        .sort(),
    (open) => open.length >= count && open.every((u) => u.includes('index=')),
    `${count} blocking queries in flight`,
  );

let page: Page;

describe('the job pages', () => {
  it('shows a job file\'s error at its line, then plans a service job (a create) and runs it, landing on its page', async () => {
    page = await browser.context.newPage();
    await signIn(page, srv.url, srv.rootToken!);
    await page.click('header nav >> text=Jobs');
    await page.click('text=Run job');
    expect(new URL(page.url()).pathname).toBe('/ui/jobs/run');

    await plan(page, 'job "web" {\n  datacenters = ["dc1"]\n  group "web" {\n    count = \n  }\n}\n');
    expect(await text(page, '[data-testid=run-error] .error')).toMatch(/job\.nomad\.hcl:4:/);
    expect(await page.getAttribute('[data-testid=error-line]', 'data-line')).toBe('4');
    expect(await text(page, '[data-testid=error-line] .line-text')).toBe('count =');
    expect(await page.isDisabled('[data-testid=run-submit]')).toBe(true);

    // A variable the file declares, given on the page: the plan shows the value it was given.
    const withVariable = serviceJob().replace('job "web" {', 'variable "dc" {\n  type = string\n}\n\njob "web" {').replace('datacenters = ["dc1"]', 'datacenters = [var.dc]');
    await plan(page, withVariable, 'dc');
    expect(await text(page, '[data-testid=run-error] .error')).toBe('Variables line 1: expected name=value, got "dc"');
    // An error in the variables is shown at their line, as the server read them.
    await plan(page, withVariable, '# where it runs\ndc=[1,');
    expect(await text(page, '[data-testid=run-error] .error')).toMatch(/variables\.hcl:2:/);
    expect(await page.getAttribute('[data-testid=error-line]', 'data-line')).toBe('2');
    expect(await text(page, '[data-testid=error-line] .line-text')).toBe('dc = [1,');
    await plan(page, withVariable, 'dc=dc1');
    expect(await page.$('[data-testid=run-error]')).toBeNull();
    expect(await text(page, '[data-testid=plan-updates] tr[data-group=web] td[data-update=Place]')).toBe('1');
    expect(await text(page, '[data-testid=diff] > li > .diff-mark')).toBe('+');
    expect(await text(page, '[data-testid=diff] > li > .diff-name')).toBe('Job: "web"');
    expect(await page.textContent('[data-testid=plan]')).toContain('All allocations can be placed.');

    await page.click('[data-testid=run-submit]');
    await page.waitForURL(jobUrl('web'));
    await page.waitForSelector('[data-testid=task-groups] tr[data-group=web]');
    expect(await text(page, '[data-testid=job-version]')).toBe('0');
    const submitted = (await api.scheduler<{ Source: string; Variables: string }>('GET', '/v1/job/web/submission', { query: { version: '0' } })).body;
    expect(submitted.Source).toBe(withVariable);
    expect(submitted.Variables).toBe('dc = "dc1"');
  });

  it('watches the deployment finish, and scales the group, the count changing on the page', async () => {
    await page.click('.tabs >> text=Deployments');
    await waitForText(page, '[data-testid=deployment-status]', 'successful');
    expect(await text(page, '[data-testid=deployment-description]')).toBe('Deployment completed successfully');
    expect(await text(page, '[data-testid=deployment-groups] tbody td:nth-child(5)')).toBe('1');
    // Over, it offers nothing to do.
    expect(await page.$('[data-testid=deployment-controls]')).toBeNull();

    await page.click('.tabs >> text=Overview');
    await waitForText(page, '[data-testid=running-web]', '1');
    expect(await text(page, '[data-testid=task-groups] tr[data-group=web] .health')).toBe('healthy');
    await page.click('[data-testid=scale-web]');
    await page.fill('[data-testid=scale-count-web]', '2');
    await page.click('[data-testid=scale-submit-web]');
    await waitForText(page, '[data-testid=desired-web]', '2');
    await waitForText(page, '[data-testid=running-web]', '2');
    expect(await text(page, '[data-testid=job-version]')).toBe('1');
    const job = (await api.scheduler<{ TaskGroups: Array<{ Count: number }> }>('GET', '/v1/job/web')).body;
    expect(job.TaskGroups[0].Count).toBe(2);
  });

  it('plans and registers a second version, compares versions 0 and 1, and reverts to version 0', async () => {
    await page.click('header nav >> text=Jobs');
    await page.click('text=Run job');
    await plan(page, serviceJob({ meta: 'two' }));
    // Against the running version: the group's count goes back to 1 and it gains meta.
    const group = '[data-testid=diff-group-web]';
    expect(await text(page, `${group} > .diff-mark`)).toBe('~');
    expect(await text(page, `${group} [data-diff-field=Count]`)).toMatch(/^~ Count: "2" => "1"/);
    expect(await text(page, `${group} [data-diff-field="Meta[release]"]`)).toBe('+ Meta[release]: "two"');
    await page.click('[data-testid=run-submit]');
    await page.waitForURL(jobUrl('web'));
    await waitForText(page, '[data-testid=job-version]', '2');

    await api.scheduler('POST', '/v1/job/web/versions/scaled/tag', { body: { Version: 1, Description: 'two of them' } });
    await page.click('.tabs >> text=Versions');
    await page.waitForSelector('[data-testid=versions] tr[data-version="2"]');
    expect(await text(page, '[data-testid=versions] tr[data-version="1"] td:nth-child(2)')).toBe('scaled');
    // Opened on the newest version against the one before it.
    expect(await text(page, `[data-testid=diff] ${group} [data-diff-field="Meta[release]"]`)).toBe('+ Meta[release]: "two"');
    await page.selectOption('[data-testid=diff-base]', '0');
    await page.selectOption('[data-testid=diff-shown]', '1');
    await page.waitForFunction(() => (document.querySelector('[data-testid=diff] [data-diff-field=Count]')?.textContent ?? '') === '~ Count: "1" => "2"');
    expect(await page.$(`[data-testid=diff] ${group} [data-diff-field="Meta[release]"]`)).toBeNull();

    // The newest version offers no revert to itself.
    expect(await page.$('[data-testid=revert-2]')).toBeNull();
    await page.click('[data-testid=revert-0]');
    expect(await text(page, '[data-testid=revert-0-confirm] > span')).toBe("Register version 0 again as the job's newest version?");
    await page.click('[data-testid=revert-0-yes]');
    await page.waitForSelector('[data-testid=reverted]');
    await page.waitForSelector('[data-testid=versions] tr[data-version="3"]');
    // The tab keeps one blocking query open, as the job's view does: no polling.
    const open = await settledRequests(page, 2);
    expect(open).toHaveLength(2);
    expect(open[0]).toMatch(/^\/v1\/job\/web\/versions\?namespace=default&diffs=true&index=\d+&wait=300s$/);
    expect(open[1]).toMatch(/^\/v1\/job\/web\?namespace=default&index=\d+&wait=300s$/);
    const reverted = (await api.scheduler<{ Version: number; TaskGroups: Array<{ Count: number; Meta: Record<string, string> | null }> }>('GET', '/v1/job/web')).body;
    expect(reverted.Version).toBe(3);
    expect(reverted.TaskGroups[0].Count).toBe(1);
    expect(reverted.TaskGroups[0].Meta ?? {}).toEqual({});
  });

  it('stops the job, starts it again, then stops and purges it after asking on the page', async () => {
    await page.click('.tabs >> text=Overview');
    await page.click('[data-testid=job-stop]');
    // Nothing is sent before the question is answered.
    expect((await api.scheduler<{ Stop: boolean }>('GET', '/v1/job/web')).body.Stop).toBe(false);
    await page.click('[data-testid=job-stop-yes]');
    await waitForText(page, '[data-testid=job-status]', 'stopped');
    expect((await api.scheduler<{ Stop: boolean }>('GET', '/v1/job/web')).body.Stop).toBe(true);

    await page.click('[data-testid=job-start]');
    await page.waitForFunction(() => !['', 'stopped'].includes((document.querySelector('[data-testid=job-status]')?.textContent ?? '').trim()));
    expect((await api.scheduler<{ Stop: boolean }>('GET', '/v1/job/web')).body.Stop).toBe(false);

    await page.click('[data-testid=job-stop]');
    await page.check('[data-testid=job-stop-purge]');
    expect(await text(page, '[data-testid=job-stop-yes]')).toBe('Stop and purge');
    await page.click('[data-testid=job-stop-yes]');
    await page.waitForURL(`${srv.url}/ui/jobs`);
    await expect(api.scheduler('GET', '/v1/job/web')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('dispatches a parameterized batch job with meta and a payload, landing on the dispatched job', async () => {
    await api.scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'report',
          Type: 'batch',
          Datacenters: ['dc1'],
          ParameterizedJob: { Payload: 'optional', MetaRequired: ['who'], MetaOptional: ['greeting'] },
          TaskGroups: [{ Name: 'report', Tasks: [{ Name: 'say', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'echo "$NOMAD_META_greeting $NOMAD_META_who"'] } }] }],
        },
      },
    });
    await page.goto(jobUrl('report'));
    await page.click('[data-testid=job-dispatch]');
    // The required meta must be given before it is sent.
    expect(await page.isDisabled('[data-testid=dispatch-submit]')).toBe(true);
    await page.fill('[data-testid=dispatch-meta-who]', 'world');
    await page.fill('[data-testid=dispatch-meta-greeting]', 'hello');
    await page.fill('[data-testid=dispatch-payload]', 'payload: ünïcode');
    await page.click('[data-testid=dispatch-submit]');
    await page.waitForURL(/\/ui\/jobs\/report%2Fdispatch-/);
    await page.waitForSelector('[data-testid=job-meta]');
    expect(await text(page, '[data-testid=job-meta]')).toBe('greeting=hello, who=world');
    const childId = await text(page, '[data-testid=job-id]');
    const child = (await api.scheduler<{ ParentID: string; Meta: Record<string, string>; Payload: string }>('GET', `/v1/job/${encodeURIComponent(childId)}`)).body;
    expect(child.ParentID).toBe('report');
    expect(child.Meta).toEqual({ greeting: 'hello', who: 'world' });
    expect(Buffer.from(child.Payload, 'base64').toString('utf8')).toBe('payload: ünïcode');
    // A dispatched job offers no dispatch of its own, and links back to its parent.
    expect(await page.$('[data-testid=job-dispatch]')).toBeNull();
    expect(await page.textContent('.crumbs')).toContain('report');
  });

  it('runs a job given as the API\'s JSON, named with markup, shown as text in the plan and on its page, running nothing', async () => {
    const name = '<img src=x onerror=alert(1)>';
    await page.click('header nav >> text=Jobs');
    await page.click('text=Run job');
    const job = {
      ID: 'markup',
      Name: name,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'server', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, KillTimeout: 1e9 }] }],
    };
    const source = JSON.stringify({ Job: job }, null, 2);
    await plan(page, source);
    expect(await text(page, '[data-testid=diff] [data-diff-field=Name]')).toBe(`+ Name: ${JSON.stringify(name)}`);
    await page.click('[data-testid=run-submit]');
    await page.waitForURL(jobUrl('markup'));
    const submitted = (await api.scheduler<{ Source: string; Format: string }>('GET', '/v1/job/markup/submission', { query: { version: '0' } })).body;
    expect(submitted).toMatchObject({ Source: source, Format: 'json' });
    await page.waitForSelector('.facts');
    expect(await text(page, '.facts dd')).toBe(name);
    expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('lists a dispatched job among its parent\'s launches, and launches a periodic job now', async () => {
    await page.goto(jobUrl('report'));
    await page.waitForFunction(() => {
      const counts = [...(document.querySelector('[data-testid=job-children]')?.textContent ?? '').matchAll(/(\d+) (pending|running|dead)/g)].map((m) => Number(m[1]));
      return counts.length === 3 && counts.reduce((a, b) => a + b, 0) === 1;
    });

    await api.scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'nightly',
          Type: 'batch',
          Datacenters: ['dc1'],
          Periodic: { Enabled: true, Spec: '0 3 1 1 *', ProhibitOverlap: false },
          TaskGroups: [{ Name: 'nightly', Tasks: [{ Name: 'run', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exit 0'] } }] }],
        },
      },
    });
    await page.goto(jobUrl('nightly'));
    expect(await text(page, '.facts dd:nth-of-type(2)')).toBe('batch (periodic: 0 3 1 1 *)');
    // Neither a periodic parent nor a parameterized one is scaled: its launches are.
    expect(await page.$('[data-testid=scale-nightly]')).toBeNull();
    await page.click('[data-testid=job-periodic-force]');
    await page.waitForSelector('[data-testid=periodic-launched]');
    const launched = (await api.scheduler<Array<{ ID: string; ParentID: string }>>('GET', '/v1/jobs', { query: { prefix: 'nightly/periodic-' } })).body;
    expect(launched.map((j) => j.ParentID)).toEqual(['nightly']);
  });

  it('explains placements that cannot be made, in the plan and in the job\'s evaluations', async () => {
    const nowhere = serviceJob()
      .replace('job "web"', 'job "nowhere"')
      .replace('  group "web" {', '  constraint {\n    attribute = "${attr.kernel.name}"\n    value     = "plan9"\n  }\n\n  group "web" {');
    await page.click('header nav >> text=Jobs');
    await page.click('text=Run job');
    await plan(page, nowhere);
    const failure = '[data-testid=plan] [data-testid=placement-failure-web]';
    expect(await text(page, `${failure} .placement-heading`)).toBe('Task Group "web" (failed to place 1 allocation):');
    expect(await page.textContent(failure)).toMatch(/Nodes evaluated: 1 · filtered: 1 · exhausted: 0/);
    expect(await page.textContent(`${failure} ul`)).toMatch(/^Constraint ".*attr\.kernel\.name.*plan9.*": 1 nodes excluded by filter$/);

    await page.click('[data-testid=run-submit]');
    await page.waitForURL(jobUrl('nowhere'));
    await page.click('.tabs >> text=Evaluations');
    await page.waitForSelector('[data-testid=evaluations] [data-testid=placement-failure-web]');
    expect(await page.textContent('[data-testid=evaluations] [data-testid=placement-failure-web] ul')).toMatch(/plan9.*: 1 nodes excluded by filter/);
    await api.scheduler('DELETE', '/v1/job/nowhere', { query: { purge: 'true' } });
  });

  it('pauses, resumes and promotes a canary deployment, and fails the next', async () => {
    const canaryJob = (release: string) => ({
      Job: {
        ID: 'canary',
        Datacenters: ['dc1'],
        Update: { MaxParallel: 1, Canary: 1, MinHealthyTime: 1e9, HealthyDeadline: 60e9, ProgressDeadline: 120e9 },
        TaskGroups: [
          {
            Name: 'web',
            Count: 1,
            Meta: { release },
            Tasks: [{ Name: 'server', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, KillTimeout: 1e9 }],
          },
        ],
      },
    });
    const latest = async () => (await api.scheduler<{ Status: string; JobVersion: number } | null>('GET', '/v1/job/canary/deployment')).body;
    await api.scheduler('POST', '/v1/jobs', { body: canaryJob('one') });
    await until(latest, (d) => d?.Status === 'successful', 'the first deployment to succeed');
    await api.scheduler('POST', '/v1/jobs', { body: canaryJob('two') });

    await page.goto(jobUrl('canary', 'deployments'));
    await waitForText(page, '[data-testid=deployment-status]', 'running');
    await page.click('[data-testid=deployment-pause]');
    await waitForText(page, '[data-testid=deployment-status]', 'paused');
    expect((await latest())!.Status).toBe('paused');
    await page.click('[data-testid=deployment-resume]');
    await waitForText(page, '[data-testid=deployment-status]', 'running');
    // The canary must be healthy before it may be promoted.
    await waitForText(page, '[data-testid=deployment-groups] tbody td:nth-child(5)', '1');
    expect(await text(page, '[data-testid=deployment-groups] tbody td:nth-child(3)')).toBe('1/1');
    await page.click('[data-testid=deployment-promote]');
    await waitForText(page, '[data-testid=deployment-status]', 'successful');
    expect(await page.$('[data-testid=deployment-controls]')).toBeNull();

    await api.scheduler('POST', '/v1/jobs', { body: canaryJob('three') });
    await waitForText(page, '[data-testid=deployment-status]', 'running');
    await page.click('[data-testid=deployment-fail]');
    await page.click('[data-testid=deployment-fail-yes]');
    await waitForText(page, '[data-testid=deployment-status]', 'failed');
    expect(await text(page, '[data-testid=deployment-description]')).toBe('Deployment marked as failed');
    await page.waitForSelector('[data-testid=earlier-deployments] >> text=Deployment completed successfully');
    const open = await settledRequests(page, 2);
    expect(open).toHaveLength(2);
    expect(open[0]).toMatch(/^\/v1\/job\/canary\/deployments\?namespace=default&index=\d+&wait=300s$/);
    expect(open[1]).toMatch(/^\/v1\/job\/canary\?namespace=default&index=\d+&wait=300s$/);
    await api.scheduler('DELETE', '/v1/job/canary', { query: { purge: 'true' } });
  });

  it('shows the Actions tab only for a job whose tasks declare actions', async () => {
    await api.scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'acting',
          Datacenters: ['dc1'],
          TaskGroups: [
            {
              Name: 'web',
              Tasks: [{ Name: 'server', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, KillTimeout: 1e9, Actions: [{ Name: 'hello', Command: '/bin/echo', Args: ['hi'] }] }],
            },
          ],
        },
      },
    });
    await page.goto(jobUrl('markup'));
    await page.waitForSelector('section[data-permissions=known] [data-testid=job-stop]');
    expect(await page.$('.tabs >> text=Actions')).toBeNull();
    await page.goto(jobUrl('acting'));
    await page.click('.tabs >> text=Actions');
    await page.waitForSelector('[data-testid=job-actions] [data-testid=run-action-hello]');
  });

  it('parses, plans and runs in the namespace the jobs list shows, for a token that may submit only there', async () => {
    await api.scheduler('POST', '/v1/namespace/other', { body: { Name: 'other' } });
    await api.secrets('PUT', 'sys/policies/acl/other-submitter', { body: { policy: 'namespace "other" { capabilities = ["submit-job", "read-job", "list-jobs"] }' } });
    const created = await api.secrets('POST', 'auth/token/create', { body: { policies: ['other-submitter'], ttl: '1h' } });
    const submitter = await browser.context.newPage();
    await signIn(submitter, srv.url, (created as unknown as { auth: { client_token: string } }).auth.client_token);
    // With every namespace shown, the link goes to the one namespace this token may submit in.
    await submitter.goto(`${srv.url}/ui/jobs`);
    await submitter.click('h1 >> text=Run job');
    await submitter.waitForURL(`${srv.url}/ui/jobs/run?namespace=other`);
    await plan(submitter, serviceJob().replace('job "web"', 'job "elsewhere"'));
    expect(await submitter.$('[data-testid=run-error]')).toBeNull();
    expect(await text(submitter, '[data-testid=plan-updates] tr[data-group=web] td[data-update=Place]')).toBe('1');
    await submitter.click('[data-testid=run-submit]');
    await submitter.waitForURL(`${srv.url}/ui/jobs/${encodeURIComponent('elsewhere@other')}`);
    await api.scheduler('DELETE', '/v1/job/elsewhere', { query: { namespace: 'other', purge: 'true' } });
    // In a namespace it may not submit in, the page says so and offers no plan.
    await submitter.goto(`${srv.url}/ui/jobs/run?namespace=default`);
    await submitter.waitForSelector('[data-testid=run-denied]');
    expect(await submitter.$('[data-testid=run-plan]')).toBeNull();
    await submitter.close();
  });

  it('offers a token that may only read jobs no run, stop, scale, revert or dispatch control', async () => {
    await api.secrets('PUT', 'sys/policies/acl/job-reader', { body: { policy: 'namespace "default" { capabilities = ["read-job", "list-jobs"] }' } });
    const created = await api.secrets('POST', 'auth/token/create', { body: { policies: ['job-reader'], ttl: '1h' } });
    const secret = (created as unknown as { auth: { client_token: string } }).auth.client_token;
    const reader = new ApiClient({ address: srv.url, token: secret });
    await expect(reader.scheduler('DELETE', '/v1/job/markup')).rejects.toMatchObject({ statusCode: 403 });
    await until(
      async () => (await api.scheduler<{ Summary: Record<string, { Running: number }> }>('GET', '/v1/job/markup/summary')).body.Summary.web.Running,
      (running) => running === 1,
      'the markup job to run',
    );

    const limited = await browser.context.newPage();
    await signIn(limited, srv.url, secret);
    // The run page says the token may not submit once its rules are known; they are kept for the tab's
    // later pages, which are reached from here without a reload.
    await limited.goto(`${srv.url}/ui/jobs/run`);
    await limited.waitForSelector('section[data-permissions=known] [data-testid=run-denied]');
    expect(await limited.$('[data-testid=run-plan]')).toBeNull();
    await limited.click('.crumbs >> text=Jobs');
    await limited.waitForSelector('section[data-permissions=known] [data-testid=jobs] >> text=markup');
    expect(await limited.$('h1 >> text=Run job')).toBeNull();

    await limited.click('[data-testid=jobs] >> text=markup');
    await limited.waitForSelector('section[data-permissions=known] [data-testid=job-read-only]');
    await waitForText(limited, '[data-testid=running-web]', '1');
    expect(await limited.$('[data-testid=job-stop]')).toBeNull();
    expect(await limited.$('[data-testid=scale-web]')).toBeNull();
    await limited.click('.tabs >> text=Versions');
    await limited.waitForSelector('[data-testid=versions] tr[data-version="0"]');
    expect(await limited.$('[data-testid=versions] button')).toBeNull();

    await limited.goto(jobUrl('report'));
    await limited.waitForSelector('section[data-permissions=known] [data-testid=job-read-only]');
    expect(await limited.$('[data-testid=job-dispatch]')).toBeNull();
    // Running an action needs alloc-exec.
    await limited.goto(jobUrl('acting'));
    await limited.waitForSelector('section[data-permissions=known] [data-testid=job-read-only]');
    expect(await limited.$('.tabs >> text=Actions')).toBeNull();
    await limited.close();

    // alloc-exec alone does not run an action of a raw_exec task (that takes alloc-node-exec): no tab,
    // and the tab's address says why rather than showing an empty list.
    await api.secrets('PUT', 'sys/policies/acl/job-exec', { body: { policy: 'namespace "default" { capabilities = ["read-job", "list-jobs", "alloc-exec"] }' } });
    const exec = await api.secrets('POST', 'auth/token/create', { body: { policies: ['job-exec'], ttl: '1h' } });
    const execer = await browser.context.newPage();
    await signIn(execer, srv.url, (exec as unknown as { auth: { client_token: string } }).auth.client_token);
    await execer.goto(jobUrl('acting'));
    await execer.waitForSelector('section[data-permissions=known] [data-testid=job-read-only]');
    expect(await execer.$('.tabs >> text=Actions')).toBeNull();
    await execer.goto(jobUrl('acting', 'actions'));
    await execer.waitForSelector("text=This token may not run the job's actions");
    expect(await execer.$('[data-testid=job-actions]')).toBeNull();
    await execer.close();
    await page.close();
  });
});
