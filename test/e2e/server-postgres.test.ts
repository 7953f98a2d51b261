/**
 * `svc server -storage-url` as users run it: the built bin/svc keeping its state in a real PostgreSQL,
 * across restarts, chosen by flag or by the config file's `storage "postgres"` block. Several servers on
 * one database: cluster-postgres.test.ts.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';
import { ApiClient } from '../../src/api/http/client.js';

let postgres: Postgres;
let home: string;
let work: string;
let databases = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  home = await makeTempDir('svc-e2e-pg-home-');
  work = await makeTempDir('svc-e2e-pg-work-');
});

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

afterAll(async () => {
  await postgres?.stop();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const newDatabase = () => createDatabase(postgres.url, `svc_e2e_${++databases}`);

async function stop(server: SpawnedServer) {
  server.child.kill('SIGTERM');
  return server.exited;
}

const cli = (server: SpawnedServer, token: string, args: string[]) => runCli(args, { HOME: home, SVC_ADDR: server.url, SVC_TOKEN: token, NO_COLOR: '1' });

describe('svc server -storage-url', () => {
  it('keeps the state in PostgreSQL, not in the data dir, and finds it again after a restart', async () => {
    const url = await newDatabase();
    const dataDir = path.join(work, 'restart');
    const first = await spawnServer(['-data-dir', dataDir, '-storage-url', url, '-port=0', '-client=false'], { HOME: home });
    const root = first.rootToken!;
    expect(root).toBeTruthy();
    await writeFile(path.join(work, 'ops.hcl'), 'path "secret/*" { capabilities = ["read"] }\n');
    const written = await cli(first, root, ['policy', 'write', 'ops', path.join(work, 'ops.hcl')]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect((await cli(first, root, ['auth', 'enable', 'cloud'])).code).toBe(0);
    const secret = await cli(first, root, ['write', 'auth/cloud/config/client', 'access_key=AKIDEXAMPLE', 'secret_key=pg-secret-key-value']);
    expect(secret.stderr).toBe('');
    expect(secret.code).toBe(0);
    expect((await stop(first)).code).toBe(0);

    // The writes are in the database (its log, which svc_kv follows by compaction); the data dir holds no
    // LMDB state. Secrets are in it only sealed or hashed, as in LMDB: neither the root token nor a secret
    // key written to the cloud method appears.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM svc_log WHERE tables::jsonb ? 'policies'`);
      expect(Number(rows[0].n)).toBeGreaterThan(0);
      const dump = (await client.query<{ v: string }>('SELECT value::text AS v FROM svc_kv UNION ALL SELECT changes::text FROM svc_log')).rows.map((r) => r.v).join('\n');
      // The policy's text is there, as JSON in svc_kv or as a JSON string inside a log entry.
      expect(dump).toMatch(/path \\+"secret\/\*\\+"/);
      expect(dump).not.toContain(root);
      expect(dump).not.toContain('pg-secret-key-value');
    } finally {
      await client.end();
    }
    expect(existsSync(path.join(dataDir, 'state'))).toBe(false);

    const second = await spawnServer(['-data-dir', dataDir, '-storage-url', url, '-port=0', '-client=false'], { HOME: home });
    try {
      // Initialised already: no new root token; the first one still works, and the policy is there.
      expect(second.rootToken).toBeUndefined();
      const read = await cli(second, root, ['policy', 'read', 'ops']);
      expect(read.code).toBe(0);
      expect(read.stdout).toContain('path "secret/*"');
    } finally {
      expect((await stop(second)).code).toBe(0);
    }

    // Another data dir has another keyring, which opens none of the database's secrets: refused at start.
    const stranger = await runCli(['server', '-data-dir', path.join(work, 'stranger'), '-storage-url', url, '-port=0', '-client=false'], { HOME: home, NO_COLOR: '1' });
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toContain("which is not in this data dir's keyring");
    expect(stranger.stderr).toContain('start with the data dir, and seal key if any, that the state was made with');
  });

  it('schedules and runs a job with its state in PostgreSQL', async () => {
    const url = await newDatabase();
    // -dev's own data dir would be temporary: the database's keyring must outlive the server.
    const refused = await runCli(['server', '-dev', '-storage-url', url, '-port=0'], { HOME: home, NO_COLOR: '1' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('with -dev and -storage-url, pass -data-dir too');
    const server = await spawnServer(['-dev', '-data-dir', path.join(work, 'dev'), '-storage-url', url, '-port=0'], { HOME: home });
    try {
      const job = path.join(work, 'hello.hcl');
      await writeFile(
        job,
        'job "hello" {\n  datacenters = ["dc1"]\n  type = "batch"\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n' +
          '      config {\n        command = "/bin/sh"\n        args = ["-c", "echo hello from postgres"]\n      }\n    }\n  }\n}\n',
      );
      const run = await cli(server, server.rootToken!, ['job', 'run', job]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('finished with status "complete"');
      let logs = '';
      for (let i = 0; i < 100 && !logs.includes('hello from postgres'); i++) {
        logs = (await cli(server, server.rootToken!, ['alloc', 'logs', '-job', 'hello'])).stdout;
        if (!logs.includes('hello from postgres')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(logs).toContain('hello from postgres');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM svc_log WHERE tables::jsonb ? 'allocs'`);
        expect(Number(rows[0].n)).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
    } finally {
      expect((await stop(server)).code).toBe(0);
    }
  });

  it('takes the database from the config file\'s storage "postgres" block, and names it without its password when it cannot connect', async () => {
    const url = await newDatabase();
    const config = path.join(work, 'server.hcl');
    await writeFile(config, `data_dir = "${path.join(work, 'from-config')}"\nstorage "postgres" {\n  url = "${url}"\n}\n`);
    const server = await spawnServer(['-config', config, '-port=0', '-client=false'], { HOME: home });
    expect(server.rootToken).toBeTruthy();
    expect((await stop(server)).code).toBe(0);

    const unreachable = await runCli(['server', '-data-dir', path.join(work, 'c'), '-storage-url', 'postgres://svc:hunter2@127.0.0.1:1/svc', '-port=0', '-client=false'], { HOME: home, NO_COLOR: '1' });
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.stderr).toContain('cannot open PostgreSQL store postgres://svc:***@127.0.0.1:1/svc: connect ECONNREFUSED');
    expect(unreachable.stderr).not.toContain('hunter2');
  });

  it('keeps SVC_STORAGE_URL (the database password) out of the environment of raw_exec tasks', async () => {
    const url = await newDatabase();
    const server = await spawnServer(['-data-dir', path.join(work, 'env-tasks'), '-port=0'], { HOME: home, SVC_STORAGE_URL: url, STORAGE_TEST_MARKER: 'kept' });
    try {
      const c = new ApiClient({ address: server.url, token: server.rootToken });
      const task = { Name: 't', Driver: 'raw_exec', Config: { command: '/usr/bin/env' }, Resources: { CPU: 20, MemoryMB: 16 } };
      await c.scheduler('POST', '/v1/jobs', {
        body: { Job: { ID: 'envdump', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: [task] }] } },
      });
      const logs = await until(
        () => cli(server, server.rootToken!, ['alloc', 'logs', '-job', 'envdump']),
        (r) => r.code === 0 && r.stdout.includes('STORAGE_TEST_MARKER=kept'),
        'the task to print its environment',
      );
      expect(logs.stdout).not.toContain('SVC_STORAGE_URL');
      expect(logs.stdout).not.toContain(url);
    } finally {
      expect((await stop(server)).code).toBe(0);
    }
  });
});
