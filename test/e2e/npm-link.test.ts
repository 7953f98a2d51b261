/**
 * The README's install line, `npm install && npm link`, as a newcomer runs it in a fresh checkout: a copy
 * of the repository's files (tracked or new, not ignored: no node_modules, no dist/), with npm's global prefix set to a
 * directory of the test's own, as the README tells a user without root to do. Afterwards `svc` runs from
 * another directory through <prefix>/bin, and `man` finds its pages under <prefix>/share/man.
 * Dependencies come from the npm cache when there (`npm ci` filled it), else the registry.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeTempDir } from '../support/server.js';

const run = promisify(execFile);
const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string };

describe('npm install && npm link in a fresh checkout', () => {
  let work: string;
  let checkout: string;
  let prefix: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    work = await makeTempDir('svc-link-');
    checkout = path.join(work, 'svc');
    prefix = path.join(work, 'prefix');
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, maxBuffer: 64 << 20 });
    for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(path.join(REPO, f)))) {
      await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
      await cp(path.join(REPO, file), path.join(checkout, file));
    }
    // What `npm config set prefix ~/.local` does for a user, without touching this machine's npm config.
    env = { ...process.env, npm_config_prefix: prefix, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    await run('sh', ['-c', 'npm install && npm link'], { cwd: checkout, env, maxBuffer: 64 << 20 });
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('puts svc in <prefix>/bin, and it runs from any directory', async () => {
    const { stdout } = await run('svc', ['version'], { cwd: work, env: { PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}`, HOME: work } });
    expect(stdout.trim()).toBe(`svc v${manifest.version}`);
  });

  it('built dist/ in the checkout (the `prepare` script) with its code cache', () => {
    expect(existsSync(path.join(checkout, 'dist/main.cjs'))).toBe(true);
    expect(existsSync(path.join(checkout, 'dist/main.cjs.cache'))).toBe(true);
  });

  it('links the man pages where man finds them from PATH', () => {
    expect(existsSync(path.join(prefix, 'share/man/man1/svc.1'))).toBe(true);
    expect(existsSync(path.join(prefix, 'share/man/man1/svc-job-run.1'))).toBe(true);
  });
});
