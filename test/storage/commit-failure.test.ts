/**
 * A commit the disk refuses: the write that asked for it fails with the cause named, the process goes on
 * (lmdb leaves promises of its own unhandled unless the store takes them), the LMDB store's memory
 * tables, whose writes were applied before the commit, are read again from what the file holds, and the
 * store still closes (lmdb never settles the failed commit's flush). The disk is made full with a file
 * size limit on a child process (`ulimit -f`, SIGXFSZ ignored, so a write past it fails instead of
 * killing).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { useFixture } from '../support/bundle-fixture.js';

const fixture = useFixture('test/storage/fixtures/full-disk.ts', 'full-disk');

/** Runs the child under the limit; a child that has not exited after 30 s is killed (code null). */
function runLimited(dir: string, limitKiB: number, mode: 'memory' | 'file'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn('bash', ['-c', `ulimit -f ${limitKiB}; trap '' XFSZ; exec "$0" "$1" "$2" "$3"`, process.execPath, fixture.bundle, dir, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => p.kill('SIGKILL'), 30_000);
    p.on('exit', () => clearTimeout(timer));
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const mode of ['memory', 'file'] as const) {
  it(`fails the write with its cause, keeps the process up and the memory tables equal to the file, and closes (${mode} writes)`, async () => {
    const dir = path.join(fixture.tmp, mode);
    fs.mkdirSync(dir);
    const { code, stdout, stderr } = await runLimited(dir, 4096, mode);
    expect(stderr).not.toMatch(/unhandled/i);
    expect(code).toBe(0);
    const [line, closed] = stdout.trim().split('\n');
    expect(closed).toBe('closed');
    const report = JSON.parse(line) as { writes: number; failure: string | null; held: unknown[]; derived: unknown[] };
    // 4 MiB takes about two hundred 20 kB records; the next commit is refused.
    expect(report.writes).toBeGreaterThan(10);
    expect(report.failure).toMatch(/^store: the commit failed: \S/);
    if (mode === 'memory') {
      expect(report.derived).toHaveLength(report.writes);
      expect(report.held).toEqual(report.derived);
    }
  });
}
