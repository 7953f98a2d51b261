/**
 * hvac, the Python client for Vault, from Debian's python3-hvac, installed with apt-get when missing so
 * a fresh machine runs the suite. Debian's package installs into Debian's own interpreter, so the
 * fixtures run /usr/bin/python3 rather than whichever python3 comes first on PATH.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO, runProgram } from '../support/server.js';

const PYTHON = '/usr/bin/python3';
const STEPS = path.join(REPO, 'test/compat/fixtures/hvac_steps.py');

const importable = () => spawnSync(PYTHON, ['-c', 'import hvac'], { encoding: 'utf8' }).status === 0;

/** Makes `import hvac` work in Debian's python3, or throws saying why it cannot. */
export function ensureHvac(): void {
  if (importable()) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'python3-hvac'], { encoding: 'utf8', env });
  let res = install();
  // A fresh image may hold no package lists yet: fetch them once and try again.
  if (res.status !== 0) {
    spawnSync('apt-get', ['update'], { encoding: 'utf8', env });
    res = install();
  }
  if (!importable()) throw new Error(`python3-hvac could not be installed: ${res.error?.message ?? ''}${res.stderr ?? ''}`.trim());
}

/** Runs one scenario of the hvac fixture against `addr` and returns what it observed. */
export async function hvacStep(step: string, addr: string, token: string): Promise<Record<string, unknown>> {
  const res = await runProgram(PYTHON, [STEPS, step], { PATH: process.env.PATH, VAULT_ADDR: addr, VAULT_TOKEN: token });
  if (res.code !== 0) throw new Error(`hvac step ${step} failed (exit ${res.code}):\n${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}
