/**
 * The README's secrets walkthrough, run as a user runs it against `svc server -dev` (bin/svc): `kv put
 * secret/db`, the example job whose template renders secrets/db.conf from it, `alloc exec ... cat`, then a
 * second `kv put` that re-renders the file and restarts the task (change_mode restart). Neither value
 * appears in the server's log or in `alloc status`. The template reads with the task's own token, which
 * its vault block gives it with the db-read policy only.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import type { Allocation } from '../../src/scheduler/structs/allocation.js';
import { makeTempDir, REPO, runCli, type CliResult } from '../support/server.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

const FIRST = 'pw-first-4c1d9e';
const SECOND = 'pw-second-b82f07';

let home: string;
let server: SpawnedServer;
let api: ApiClient;
const svc = (args: string[], token = server.rootToken): Promise<CliResult> => runCli(args, { HOME: home, SVC_ADDR: server.url, SVC_TOKEN: token, NO_COLOR: '1' });

async function ok(args: string[]): Promise<string> {
  const r = await svc(args);
  expect(r.code, `svc ${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  home = await makeTempDir('svc-tmpl-secret-e2e-');
  server = await spawnServer(['-dev', '-port=0'], { HOME: home, TMPDIR: home });
  api = new ApiClient({ address: server.url, token: server.rootToken });
});

afterAll(async () => {
  await stopServer(server);
  await rm(home, { recursive: true, force: true });
}, 60_000);

describe('a template that renders a secret, on svc server -dev', () => {
  it('renders secret/db into secrets/db.conf, and re-renders and restarts the task on a new version', async () => {
    await ok(['kv', 'put', 'secret/db', `password=${FIRST}`]);
    await ok(['policy', 'write', 'db-read', path.join(REPO, 'examples/policies/db-read.hcl')]);
    await ok(['job', 'run', path.join(REPO, 'examples/jobs/secret-template.hcl')]);

    const running = await until(
      async () => (await api.scheduler<Allocation[]>('GET', '/v1/job/secret-template/allocations')).body,
      (allocs) => allocs.length === 1 && allocs[0].ClientStatus === 'running',
      'the allocation running',
      60_000,
    );
    const allocId = running[0].ID;
    const cat = () => svc(['alloc', 'exec', '-task', 'app', allocId, 'cat', 'secrets/db.conf']);
    expect((await cat()).stdout).toBe(`password = "${FIRST}"\n`);

    await ok(['kv', 'put', 'secret/db', `password=${SECOND}`]);
    await until(async () => (await cat()).stdout, (out) => out === `password = "${SECOND}"\n`, 'the re-rendered file', 30_000);
    const restarted = await until(
      async () => (await api.scheduler<Allocation>('GET', `/v1/allocation/${allocId}`)).body,
      (a) => a.TaskStates?.app?.Restarts === 1 && a.TaskStates.app.State === 'running',
      'the restart',
      30_000,
    );
    expect(restarted.TaskStates!.app.Events.map((e) => e.DisplayMessage)).toContain('Template with change_mode restart re-rendered');

    const status = await ok(['alloc', 'status', '-verbose', allocId]);
    expect(status).toContain('Template with change_mode restart re-rendered');
    for (const value of [FIRST, SECOND]) {
      expect(status).not.toContain(value);
      expect(server.stdout() + server.stderr()).not.toContain(value);
    }
    await ok(['job', 'stop', '-purge', 'secret-template']);
  }, 180_000);
});
