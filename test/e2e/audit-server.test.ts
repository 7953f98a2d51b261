/** `svc server` with an audit log: -audit-file, else audit { file } in the config file; the banner names it. */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { running, spawnServer } from '../support/spawn-server.js';

let work: string;
beforeAll(async () => {
  work = await makeTempDir('svc-audit-e2e-');
});
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('svc server and its audit log', () => {
  it('-audit-file wins over audit { file }; each is used when it is the one given', async () => {
    const fromFlag = path.join(work, 'flag.log');
    const fromConfig = path.join(work, 'config.log');
    const config = path.join(work, 'audit.hcl');
    await writeFile(config, `audit {\n  file = "${fromConfig}"\n}\n`);
    const serve = async (args: string[], dir: string) => {
      const proc = await spawnServer([`-data-dir=${path.join(work, dir)}`, '-port=0', '-client=false', `-config=${config}`, ...args], { HOME: work });
      await new ApiClient({ address: proc.url, token: proc.rootToken }).secrets('GET', 'auth/token/lookup-self');
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      return /Audit log: (.*)/.exec(proc.stdout())?.[1];
    };
    expect(await serve([`-audit-file=${fromFlag}`], 'one')).toBe(fromFlag);
    expect(existsSync(fromConfig)).toBe(false);
    const lines = (await readFile(fromFlag, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; request: { path: string } });
    expect(lines.map((l) => [l.type, l.request.path])).toEqual([
      ['request', 'auth/token/lookup-self'],
      ['response', 'auth/token/lookup-self'],
    ]);
    expect(await serve([], 'two')).toBe(fromConfig);
    expect((await readFile(fromConfig, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
  });
});
