/**
 * `npm run build` while `svc server -dev` runs from dist/: the build writes next to dist/ and swaps the
 * result in, so the server keeps answering, a `svc` started at any moment of the build finds a complete
 * dist/, and what the server loads from dist/ later (the task executor) is there.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { REPO, makeTempDir, runCli, type CliResult } from '../support/server.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

let home: string;
let dev: SpawnedServer;

beforeAll(async () => {
  home = await makeTempDir('svc-rebuild-');
  dev = await spawnServer(['-dev', '-port=0'], { HOME: home });
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await rm(home, { recursive: true, force: true });
});

/** Runs scripts/build.mjs in the repository; resolves with its exit code and output. */
function build(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('a rebuild under a running server', () => {
  it('keeps the server serving and `svc status` working throughout; the server still runs tasks after it', async () => {
    const env = { SVC_ADDR: dev.url, SVC_TOKEN: dev.rootToken!, HOME: home };
    // What a build killed half-way leaves behind (pid beyond any pid_max), removed by the next build.
    const abandoned = path.join(REPO, 'dist.new-99999999');
    await mkdir(abandoned);

    const building = build();
    let done = false;
    void building.then(() => (done = true));
    const during: CliResult[] = [];
    while (!done) during.push(await runCli(['status'], env));
    const { code, output } = await building;
    expect(code, output).toBe(0);
    expect(during.length).toBeGreaterThan(0);
    for (const r of during) expect(r, 'svc status during the build').toMatchObject({ code: 0, stderr: '' });

    expect(await runCli(['status'], env)).toMatchObject({ code: 0, stderr: '' });
    expect((await readdir(REPO)).filter((n) => n.startsWith('dist.'))).toEqual([]);

    // Each task runs under dist/executor.cjs, which the server finds in the new dist/.
    const api = new ApiClient({ address: dev.url, token: dev.rootToken });
    await api.scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'after-rebuild',
          Type: 'batch',
          Datacenters: ['dc1'],
          TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
        },
      },
    });
    await until(
      () => api.scheduler<Array<{ ClientStatus: string }>>('GET', '/v1/job/after-rebuild/allocations').then((r) => r.body),
      (allocs) => allocs.length === 1 && allocs[0].ClientStatus === 'complete',
      'the task to run and complete',
    );
  });
});
