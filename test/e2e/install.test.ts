/**
 * The package as a user installs it: `npm pack` of the checkout, then a global install of the tarball into
 * a prefix of its own (no root needed). The installed `svc` runs, every man page is linked where `man`
 * finds it, and the completion scripts are in the package. The install runs the dependencies' install
 * scripts as a user's would, and would fail if it needed svc's `prepare` (the build): the tarball holds
 * dist/ but not the scripts that build it. Dependencies come from the npm cache when there, else the registry.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeTempDir } from '../support/server.js';

const run = promisify(execFile);
const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string; man: string[] };
const manPages = (await readdir(path.join(REPO, 'man/man1'))).filter((f) => f.endsWith('.1')).sort();

describe('package.json', () => {
  it('names every man page, as npm links only those it names (npm run gen keeps the list)', () => {
    expect(manifest.man).toEqual(manPages.map((f) => `man/man1/${f}`));
  });
});

describe('a global install of the packed tarball', () => {
  let work: string;
  let prefix: string;

  beforeAll(async () => {
    work = await makeTempDir('svc-install-');
    prefix = path.join(work, 'prefix');
    // --ignore-scripts: `prepare` would rebuild dist/ in the checkout; the tarball ships the build under test.
    // test/e2e/rebuild.test.ts may swap dist/ in another worker meanwhile: a pack that read it mid-swap is tried again.
    const pack = () => run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: REPO });
    const packed = await pack().catch(async () => {
      await new Promise((r) => setTimeout(r, 1000));
      return pack();
    });
    const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    await run('npm', ['install', '-g', '--prefix', prefix, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, filename)], { cwd: work });
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('puts a working svc in <prefix>/bin', async () => {
    const { stdout } = await run(path.join(prefix, 'bin/svc'), ['version'], { env: { PATH: process.env.PATH, HOME: work } });
    expect(stdout.trim()).toBe(`svc v${manifest.version}`);
  });

  it('links every man page under <prefix>/share/man/man1, svc.1 included', async () => {
    expect(existsSync(path.join(prefix, 'share/man/man1/svc.1'))).toBe(true);
    const linked = (await readdir(path.join(prefix, 'share/man/man1'))).sort();
    expect(linked).toEqual(manPages);
    expect(linked.filter((f) => !existsSync(path.join(prefix, 'share/man/man1', f))), 'dangling links').toEqual([]);
  });

  it('ships the completion scripts', () => {
    for (const shell of ['bash', 'zsh', 'fish']) expect(existsSync(path.join(prefix, `lib/node_modules/svc/completions/svc.${shell}`)), shell).toBe(true);
  });
});
