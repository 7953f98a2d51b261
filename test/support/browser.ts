/**
 * A real browser for the UI's tests: Debian's chromium (installed from the package when it is missing
 * and this process may, as the completion tests install zsh and fish), driven by playwright-core, which
 * never downloads a browser of its own. One browser per test file, with a profile made fresh for it and
 * everything that phones home switched off, so a test sees only the requests the page makes.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { chromium, type BrowserContext } from 'playwright-core';
import { aptInstall } from './shells.js';
import { makeTempDir } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Installs chromium when it is missing; throws with the reason when it cannot be had. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing and this process is not root to install it: apt-get install chromium`);
  if (spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) throw new Error(`${CHROMIUM} is missing and apt-get is not available`);
  const { ok, error } = aptInstall(['chromium']);
  if (!ok || !existsSync(CHROMIUM)) throw new Error(`apt-get install chromium failed: ${error}`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  ensureChromium();
  const profile = await makeTempDir('svc-chromium-');
  // A persistent context is how playwright takes a profile directory of ours (--user-data-dir).
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
