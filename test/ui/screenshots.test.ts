/**
 * `npm run screenshots` (scripts/screenshots.mjs) as a user runs it: it writes a picture of each main
 * page of the web UI at 1280 pixels wide, and whether it finishes or is interrupted, the server and
 * the browser it started are gone and its temporary directories removed. The script runs with a
 * TMPDIR of the test's own, so what it leaves is what is under that directory, and its processes are
 * those naming it (the server's HOME, the browser's profile).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/browser.js';
import { makeTempDir } from '../support/server.js';
import { until } from '../support/wait.js';

const SCRIPT = path.resolve('scripts/screenshots.mjs');

const PAGES = [
  'jobs',
  'job',
  'job-versions',
  'job-placement-failure',
  'job-plan',
  'allocation',
  'exec',
  'clients',
  'client',
  'topology',
  'secrets-policy',
  'secrets-cloud-role',
  'secrets-identity',
  'secrets-kv',
];

let root: string;

beforeAll(async () => {
  // Installing chromium on a machine without it takes minutes.
  ensureChromium();
  root = await makeTempDir('svc-screenshots-test-');
}, 600_000);

afterAll(async () => {
  if (!root) return;
  // What a script that failed to clean up left running (the assertions say so), stopped by its PID.
  for (const pid of processesNaming(root)) process.kill(pid, 'SIGKILL');
  await until(async () => processesNaming(root), (pids) => pids.length === 0, 'what the script left running to exit');
  await rm(root, { recursive: true, force: true });
});

/** The live processes whose arguments (`how: 'args'`), HOME (`'home'`) or either name `dir`. */
function processesNaming(dir: string, how: 'args' | 'home' | 'either' = 'either'): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z') continue;
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const byArgs = how !== 'home' && args.includes(dir);
      const byHome = how !== 'args' && env.some((e) => e.startsWith(`HOME=${dir}`));
      if (byArgs || byHome) pids.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return pids;
}

/** The script run with a TMPDIR of its own, writing into `out`. */
function run(tmp: string, out: string) {
  const child = spawn(process.execPath, [SCRIPT, out], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, exited, output: () => output };
}

/** The width and height a PNG's header gives. */
async function pngSize(file: string): Promise<[number, number]> {
  const head = await readFile(file);
  expect(head.subarray(1, 4).toString()).toBe('PNG');
  return [head.readUInt32BE(16), head.readUInt32BE(20)];
}

describe('npm run screenshots', () => {
  it('writes each main page at 1280 px wide, then leaves no process or directory of its own behind', async () => {
    const tmp = path.join(root, 'tmp');
    const out = path.join(root, 'out');
    await mkdir(tmp);
    const script = run(tmp, out);
    const code = await script.exited;
    expect(code, script.output()).toBe(0);

    expect((await readdir(out)).sort()).toEqual(PAGES.map((p) => `${p}.png`).sort());
    for (const page of PAGES) {
      const [width, height] = await pngSize(path.join(out, `${page}.png`));
      expect(width).toBe(1280);
      expect(height).toBeGreaterThanOrEqual(800);
    }
    // A line a picture, naming it.
    expect(script.output().trim().split('\n')).toHaveLength(PAGES.length);
    expect(await readdir(tmp)).toEqual([]);
    expect(processesNaming(tmp)).toEqual([]);
  });

  it('stops the server and the browser it started when interrupted with Ctrl-C (SIGINT)', async () => {
    const tmp = path.join(root, 'tmp-interrupted');
    await mkdir(tmp);
    const script = run(tmp, path.join(root, 'out-interrupted'));
    // Interrupted with both running: the server (its HOME) and the browser (its profile directory).
    await until(async () => [processesNaming(tmp, 'home'), processesNaming(tmp, 'args')], ([server, browser]) => server.length > 0 && browser.length > 0, 'the script\'s server and browser to start', 30_000);
    script.child.kill('SIGINT');
    expect(await script.exited, script.output()).toBe(130);
    expect(processesNaming(tmp)).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  }, 60_000);
});
