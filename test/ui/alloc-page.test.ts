/**
 * The allocation page in a real browser (Debian's chromium) against a real `svc server -dev` running a
 * raw_exec /bin/sh task on its own node: the task's events, its logs followed as it writes them and
 * switched to stderr, its output's markup and escape sequences shown as text, the files browser, a
 * shell in the exec terminal (output, Ctrl-C, the exit code), a signal, a job action in the terminal,
 * a restart, a stop, and tokens that may do less seeing only the controls they may use.
 */
import { readFile, rm } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { makeTempDir } from '../support/server.js';
import { liveProcesses } from '../support/procs.js';
import { until } from '../support/wait.js';
import { signIn as signInAs, waitForText as waitForTextOf } from '../support/ui.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';

/** The page's globals as the functions handed to page.evaluate use them: they run in the browser. */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

let srv: SpawnedServer;
let home: string;
let browser: Browser;
let api: ApiClient;
let page: Page;
let allocId: string;
const requests: Request[] = [];
const sockets: string[] = [];

const SCRIPT = [
  "trap 'echo got-hup' HUP",
  'printf \'<i>hello</i> from the task\\n\' > "$NOMAD_ALLOC_DIR/hello.txt"',
  // 100,000 bytes, the last one a newline: more than a file view shows at once.
  'i=0; while [ $i -lt 1000 ]; do printf "%099d\\n" $i; i=$((i+1)); done > "$NOMAD_ALLOC_DIR/big.txt"',
  "printf '\\033[31m<b>bold</b>\\033[0m plain\\n'",
  'i=0; while :; do echo "tick-$i"; echo "err-$i" >&2; i=$((i+1)); sleep 0.2; done',
].join('\n');

const job = {
  Job: {
    ID: 'shell',
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'web',
        Count: 1,
        Tasks: [
          {
            Name: 'sh',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', SCRIPT] },
            KillTimeout: 1_000_000_000,
            Actions: [{ Name: 'answer', Command: '/bin/sh', Args: ['-c', 'echo action-$((6*7))'] }],
          },
        ],
      },
    ],
  },
};

beforeAll(async () => {
  home = await makeTempDir('svc-alloc-ui-home-');
  [srv, browser] = await Promise.all([spawnServer(['-dev', '-port=0'], { HOME: home }), launchBrowser()]);
  api = new ApiClient({ address: srv.url, token: srv.rootToken });
  browser.context.on('request', (r) => void requests.push(r));
  await api.scheduler('POST', '/v1/jobs', { body: job });
  const running = await until(
    async () => (await api.scheduler<Array<{ ID: string; ClientStatus: string }>>('GET', '/v1/job/shell/allocations')).body,
    (allocs) => allocs.some((a) => a.ClientStatus === 'running'),
    'the shell job running',
  );
  allocId = running.find((a) => a.ClientStatus === 'running')!.ID;
  page = await browser.context.newPage();
  page.on('websocket', (ws) => void sockets.push(ws.url()));
  await signIn(page, srv.rootToken!);
  // Installing chromium on a machine without it takes minutes.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stopServer(srv);
  if (home) await rm(home, { recursive: true, force: true });
});

/** Every token a page of the test signed in with: none may show up in an address. */
const signedInWith: string[] = [];

async function signIn(p: Page, secret: string): Promise<void> {
  signedInWith.push(secret);
  await signInAs(p, srv.url, secret);
}

const textOf = (selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
const waitForText = (selector: string, text: string) => waitForTextOf(page, selector, text, 'contains');
const TERMINAL = '[data-testid=terminal] .xterm-rows';

/** The highest number after `prefix` the log view shows. */
const lastOf = (prefix: string) => page.$eval('[data-testid=log]', (el, p) => Math.max(-1, ...[...(el.textContent ?? '').matchAll(new RegExp(`${p}(\\d+)`, 'g'))].map((m) => Number(m[1]))), prefix);

describe('the allocation page', () => {
  it("shows the task's events timeline with its start", async () => {
    await page.goto(`${srv.url}/ui/allocations/${allocId}`);
    await waitForText('[data-testid=events-sh]', 'Started');
    const types = await page.$$eval('[data-testid=events-sh] tbody tr td:nth-child(2)', (cells) => cells.map((c) => c.textContent));
    // Newest first, as Nomad's UI lists them: Received came before Started.
    expect(types.indexOf('Started')).toBeLessThan(types.indexOf('Received'));
  });

  it('follows the log as the task writes it, shows markup and escapes as text, switches to stderr and stops following', async () => {
    await page.waitForFunction(() => /tick-\d+/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    const seen = await lastOf('tick-');
    await page.waitForFunction((n) => [...(document.querySelector('[data-testid=log]')?.textContent ?? '').matchAll(/tick-(\d+)/g)].some((m) => Number(m[1]) > n + 2), seen);
    expect(await textOf('[data-testid=log]')).toMatch(/^<b>bold<\/b> plain\ntick-0\n/);
    expect(await page.locator('[data-testid=log] b').count()).toBe(0);

    await page.click('[data-testid=log-type] >> text=stderr');
    await page.waitForFunction(() => /err-\d+/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    expect(await textOf('[data-testid=log]')).not.toContain('tick-');

    await page.click('[data-testid=log-follow]');
    await waitForText('[data-testid=log-phase]', 'End of the log as it was when read');
    const frozen = await textOf('[data-testid=log]');
    expect(frozen).toMatch(/^err-0\nerr-1\n/);
    // The tail: the last bytes only, here all of them (the log is shorter than the tail).
    await page.click('[data-testid=log-origin] >> text=Tail');
    // The phase read the same before the click: wait for the tail's text itself.
    await page.waitForFunction(() => /err-\d+\n$/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    await waitForText('[data-testid=log-phase]', 'End of the log as it was when read');
  });

  it('browses the allocation directory by address and shows a file the task wrote, as text', async () => {
    await page.click('.tabs >> text=Files');
    await page.waitForSelector('[data-testid=files] >> text=alloc/');
    const names = await page.$$eval('[data-testid=files] tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
    expect(names).toEqual(expect.arrayContaining(['alloc/', 'sh/']));
    await page.click('[data-testid=files] >> text=alloc/');
    await page.waitForSelector('[data-testid=files] >> text=hello.txt');
    expect(new URL(page.url()).searchParams.get('path')).toBe('alloc');
    await page.click('[data-testid=files] >> text=hello.txt');
    await waitForText('[data-testid=file-contents]', 'from the task');
    expect(await textOf('[data-testid=file-contents]')).toBe('<i>hello</i> from the task\n');
    expect(await page.locator('[data-testid=file-contents] i').count()).toBe(0);
    // The address alone opens the same file.
    await page.goto(`${srv.url}/ui/allocations/${allocId}?tab=files&path=alloc%2Fhello.txt`);
    await waitForText('[data-testid=file-contents]', 'from the task');

    // A large file: its first 64 KiB, then the rest on request.
    await page.click('[data-testid=fs-path] >> text="alloc"');
    await page.click('[data-testid=files] >> text=big.txt');
    await waitForText('[data-testid=file]', 'Showing the first 64.0 KiB of 97.7 KiB');
    expect((await textOf('[data-testid=file-contents]')).length).toBe(64 * 1024);
    await page.click('[data-testid=file-more]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=file-contents]')?.textContent ?? '').length === 100_000);
    const lines = (await textOf('[data-testid=file-contents]')).split('\n');
    expect(lines.slice(-2)).toEqual([`${'0'.repeat(96)}999`, '']);
    expect(await page.locator('[data-testid=file-more]').count()).toBe(0);
    // Download saves the whole file, read with the token in its header like every other request.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=file-download]')]);
    expect(saved.suggestedFilename()).toBe('big.txt');
    expect((await readFile((await saved.path())!)).length).toBe(100_000);
  });

  it('runs a shell in the exec terminal: output, Ctrl-C ending a command, the size followed, and the exit code', async () => {
    const terminalAssets = () => requests.filter((r) => /\/ui\/assets\/terminal-/.test(new URL(r.url()).pathname));
    expect(terminalAssets()).toEqual([]);
    await page.click('.tabs >> text=Exec');
    expect(await page.inputValue('[data-testid=exec-command]')).toBe('/bin/sh');
    await page.click('[data-testid=exec-open]');
    await waitForText('[data-testid=terminal-status]', 'Connected');
    // xterm.js and its stylesheet came with the terminal, not before.
    expect(terminalAssets().map((r) => new URL(r.url()).pathname.split('.').pop()).sort()).toEqual(['css', 'js']);
    await page.click('[data-testid=terminal] .xterm');
    await page.keyboard.type('echo hi-$((40+2))');
    await page.keyboard.press('Enter');
    await waitForText(TERMINAL, 'hi-42');

    await page.keyboard.type('sleep 4242');
    await page.keyboard.press('Enter');
    await until(async () => liveProcesses(['sleep', '4242']), (pids) => pids.length === 1, 'the sleep running in the terminal');
    await page.keyboard.press('Control+C');
    await until(async () => liveProcesses(['sleep', '4242']), (pids) => pids.length === 0, 'Ctrl-C to end the sleep');
    await page.keyboard.type('echo after-$((1+1))');
    await page.keyboard.press('Enter');
    await waitForText(TERMINAL, 'after-2');

    // The command learns the terminal's size, and every change of it.
    const sttySize = async (mark: string) => {
      await page.keyboard.type(`echo ${mark}-$(stty size | tr ' ' x)`);
      await page.keyboard.press('Enter');
      await page.waitForFunction((m) => new RegExp(`${m}-\\d+x\\d+`).test(document.querySelector('[data-testid=terminal] .xterm-rows')?.textContent ?? ''), mark);
      return /^(\d+)x(\d+)/.exec((await textOf(TERMINAL)).split(`${mark}-`).pop()!)!.slice(1).map(Number);
    };
    const [rows, cols] = await sttySize('wide');
    expect(rows).toBeGreaterThan(10);
    await page.setViewportSize({ width: 700, height: 720 });
    const [, narrower] = await sttySize('narrow');
    expect(narrower).toBeLessThan(cols);
    await page.setViewportSize({ width: 1280, height: 720 });

    await page.keyboard.type('exit 3');
    await page.keyboard.press('Enter');
    await waitForText('[data-testid=terminal-status]', 'exited with code 3');
    const exec = sockets.find((u) => u.includes('/exec?'))!;
    expect(new URL(exec).searchParams.get('ws_handshake')).toBe('true');
    expect(JSON.parse(new URL(exec).searchParams.get('command')!)).toEqual(['/bin/sh']);
  });

  it('sends a signal the task traps, after asking', async () => {
    await page.click('.tabs >> text=Overview');
    await page.waitForSelector('[data-testid=log]');
    await page.selectOption('[data-testid=signal-name]', 'SIGHUP');
    await page.selectOption('[data-testid=signal-task]', 'sh');
    await page.click('[data-testid=signal]');
    await waitForText('[data-testid=signal-confirm]', 'Send SIGHUP to task sh?');
    expect(await textOf('[data-testid=log]')).not.toContain('got-hup');
    await page.click('[data-testid=signal-yes]');
    await waitForText('[data-testid=signal-done]', 'SIGHUP sent.');
    await waitForText('[data-testid=log]', 'got-hup');
  });

  it("runs the job's action in the terminal, from the allocation's page and the job's, and shows its output", async () => {
    await page.click('[data-testid=run-action-answer]');
    await waitForText(TERMINAL, 'action-42');
    await waitForText('[data-testid=terminal-status]', 'exited with code 0');
    const action = new URL(sockets.find((u) => u.includes('/action?'))!);
    expect(action.pathname).toBe('/v1/job/shell/action');
    expect(Object.fromEntries(action.searchParams)).toMatchObject({ action: 'answer', allocID: allocId, task: 'sh', ws_handshake: 'true' });

    // From the job's page, the action runs in a running allocation of a group that declares it: here the one.
    await page.goto(`${srv.url}/ui/jobs/shell%40default?tab=actions`);
    await page.click('[data-testid=run-action-answer]');
    await waitForText(TERMINAL, 'action-42');
    await waitForText('[data-testid=terminal-status]', 'exited with code 0');
    const fromJob = sockets.filter((u) => u.includes('/action?'));
    expect(fromJob).toHaveLength(2);
    expect(new URL(fromJob[1]).searchParams.get('allocID')).toBe(allocId);
    await page.goto(`${srv.url}/ui/allocations/${allocId}`);
    await page.waitForSelector('[data-testid=tasks]');
  });

  it('restarts a task, which the restart count then shows', async () => {
    const restarts = () => page.$eval('[data-testid=tasks] tbody tr td:nth-child(4)', (td) => td.textContent);
    expect(await restarts()).toBe('0');
    await page.click('[data-testid=restart-task-sh]');
    await page.click('[data-testid=restart-task-sh-yes]');
    await page.waitForFunction(() => document.querySelector('[data-testid=tasks] tbody tr td:nth-child(4)')?.textContent === '1');
    await waitForText('[data-testid=events-sh]', 'Restart Signaled');
    // Restarting the allocation restarts the tasks that run: wait until this one runs again.
    await page.waitForFunction(() => document.querySelector('[data-testid=events-sh] tbody tr td:nth-child(2)')?.textContent === 'Started');
    expect(await page.$$eval('[data-testid=events-sh] tbody tr td:nth-child(2)', (cells) => cells.filter((c) => c.textContent === 'Started').length)).toBe(2);

    await page.click('[data-testid=restart]');
    await waitForText('[data-testid=restart-confirm]', "Restart the allocation's running tasks?");
    await page.click('[data-testid=restart-yes]');
    await page.waitForFunction(() => document.querySelector('[data-testid=tasks] tbody tr td:nth-child(4)')?.textContent === '2');
  });

  it('offers a token that may only read the job no exec, file, log or lifecycle controls', async () => {
    await api.secrets('PUT', 'sys/policies/acl/job-reader', { body: { policy: 'namespace "default" { capabilities = ["read-job"] }' } });
    const created = await api.secrets('POST', 'auth/token/create', { body: { policies: ['job-reader'], ttl: '1h' } });
    const limited = await browser.context.newPage();
    await signIn(limited, created!.auth!.client_token as string);
    await limited.goto(`${srv.url}/ui/allocations/${allocId}?tab=exec`);
    await limited.waitForSelector('[data-testid=no-lifecycle]');
    await limited.waitForSelector('[data-testid=no-logs]');
    await limited.waitForSelector('section[data-permissions=known] [data-testid=tasks] >> text=sh');
    expect(await limited.locator('.tabs').count()).toBe(0);
    expect(await limited.locator('[data-testid=exec], [data-testid=alloc-controls], [data-testid=job-actions], [data-testid=files-browser]').count()).toBe(0);
    expect(await limited.locator('[data-testid=tasks] button').count()).toBe(0);
    await limited.close();
  });

  it('offers a token that may exec but not on the node itself (alloc-node-exec) no terminal for a raw_exec task', async () => {
    await api.secrets('PUT', 'sys/policies/acl/operator', { body: { policy: 'namespace "default" { capabilities = ["read-job", "read-logs", "alloc-exec", "alloc-lifecycle"] }' } });
    const created = await api.secrets('POST', 'auth/token/create', { body: { policies: ['operator'], ttl: '1h' } });
    const operator = await browser.context.newPage();
    await signIn(operator, created!.auth!.client_token as string);
    await operator.goto(`${srv.url}/ui/allocations/${allocId}`);
    await operator.waitForSelector('section[data-permissions=known] [data-testid=alloc-controls]');
    await operator.waitForFunction(() => /tick-\d+/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    expect(await operator.locator('[data-testid=restart-task-sh]').count()).toBe(1);
    expect(await operator.locator('.tabs, [data-testid=job-actions]').count()).toBe(0);
    await operator.close();
  });

  it('stops the allocation, after asking, and then offers nothing more to do to it', async () => {
    await page.click('[data-testid=stop]');
    await waitForText('[data-testid=stop-confirm]', 'Stop the allocation?');
    await page.click('[data-testid=stop-yes]');
    await waitForText('h1', 'complete');
    await waitForText('main', 'The allocation is not running');
    expect(await page.locator('[data-testid=restart-task-sh]').count()).toBe(0);
    const { body } = await api.scheduler<{ DesiredStatus: string }>('GET', `/v1/allocation/${allocId}`);
    expect(body.DesiredStatus).toBe('stop');
  });

  it('never put the token in an address, a socket included', () => {
    expect(sockets.length).toBe(3);
    expect(signedInWith).toHaveLength(3);
    for (const u of [...sockets, ...requests.map((r) => r.url())]) for (const secret of signedInWith) expect(decodeURIComponent(u)).not.toContain(secret);
    const fileReads = requests.filter((r) => /^\/v1\/client\/fs\/(cat|readat)\//.test(new URL(r.url()).pathname));
    expect(fileReads.length).toBeGreaterThanOrEqual(3);
    for (const r of fileReads) expect(r.headers()['x-svc-token']).toBe(srv.rootToken);
  });
});
