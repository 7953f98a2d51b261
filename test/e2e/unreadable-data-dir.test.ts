/**
 * The server refuses to start on a data dir it cannot read. Tests run as root on CI, where permission
 * bits do not stop the process, so the server is started as an unprivileged user (uid 65534) then.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, SVC_BIN } from '../support/server.js';

describe('svc server on an unreadable data dir', () => {
  let tmp = '';
  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('exits non-zero with a message naming the dir', async () => {
    tmp = await makeTempDir();
    // The temp dir and the repo must be reachable by the unprivileged user; the data dir itself must not be.
    chmodSync(tmp, 0o755);
    const dataDir = path.join(tmp, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(dataDir, 0o000);
    const result = spawnSync(process.execPath, [SVC_BIN, 'server', `-data-dir=${dataDir}`, '-port=0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH, HOME: tmp },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Error starting server');
    expect(result.stderr).toContain(dataDir);
    expect(result.stderr.toLowerCase()).toMatch(/permission denied|eacces/);
  });
});
