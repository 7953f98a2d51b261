import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = path.join(REPO, 'node_modules/.cache/svc-test');

/**
 * Bundles a child-process fixture (our TypeScript, `entry` relative to the repository) into an ES module
 * under node_modules/.cache, where its package imports (lmdb, pg) resolve to the repository's copies.
 * Answers its path; the caller removes it.
 */
export async function bundleFixture(entry: string, name: string): Promise<string> {
  fs.mkdirSync(CACHE, { recursive: true });
  const outfile = path.join(CACHE, `${name}-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(REPO, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    packages: 'external',
    logLevel: 'silent',
  });
  return outfile;
}

/**
 * For a test file whose children run a fixture in a scratch directory: the bundle and a temporary
 * directory, made before the file's tests and removed after them.
 */
export function useFixture(entry: string, name: string): { readonly bundle: string; readonly tmp: string } {
  const state = { bundle: '', tmp: '' };
  beforeAll(async () => {
    state.bundle = await bundleFixture(entry, name);
    state.tmp = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  });
  afterAll(() => {
    if (state.bundle) fs.rmSync(state.bundle, { force: true });
    if (state.tmp) fs.rmSync(state.tmp, { recursive: true, force: true });
  });
  return state;
}
