/**
 * `svc server` with an external seal key: where the key comes from (flag, config file, SVC_SEAL_KEY, in
 * that order), a data dir moved to the key, and a copy of a sealed data dir, which reveals nothing and
 * does not start without the key.
 */
import crypto from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import { Seal } from '../../src/storage/seal.js';
import { providerClientConfig } from '../../src/secrets/auth/cloud/client-config.js';
import { CONFIG_TABLE } from '../../src/secrets/auth/cloud/mount-storage.js';
import { makeTempDir, runCli, startTestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';

let work: string;
let home: string;
beforeAll(async () => {
  work = await makeTempDir('svc-seal-e2e-');
  home = await makeTempDir('svc-seal-home-');
});
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

async function stop(proc: SpawnedServer) {
  proc.child.kill('SIGTERM');
  return proc.exited;
}

const lookupSelf = (url: string, token: string) => new ApiClient({ address: url, token }).secrets('GET', 'auth/token/lookup-self');
const randomKey = () => crypto.randomBytes(32).toString('base64');

function anyFileHolds(dir: string, text: string): boolean {
  const needle = Buffer.from(text);
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .some((e) => readFileSync(path.join(e.parentPath, e.name)).includes(needle));
}

describe('a copy of a data dir sealed with an external key', () => {
  const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSEALKEYTEST';

  it('reveals no secret, does not start without the key, and opens with it', async () => {
    const dataDir = path.join(work, 'sealed');
    const keyFile = path.join(work, 'sealed.key');
    const srv = await startTestServer({ dataDir, sealKey: { file: keyFile }, client: false, cloud: { env: {} } });
    const root = srv.client();
    await root.secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
    await root.secrets('POST', 'auth/cloud/config/client', { body: { access_key: 'AKIASEALTEST', secret_key: SECRET } });
    const accessor = srv.server.services.mounts.get('auth/cloud/')!.accessor;
    const token = (await root.secrets('POST', 'auth/token/create', { body: { policies: ['default'] } }))!.auth!.client_token as string;
    await srv.close();

    const copy = path.join(work, 'copy');
    cpSync(dataDir, copy, { recursive: true });
    expect(readdirSync(copy).sort()).toEqual(['keyring.sealed', 'server-id', 'state']);
    for (const secret of [SECRET, token, srv.rootToken]) expect(anyFileHolds(copy, secret), secret).toBe(false);

    // The sealed value is in the store, and no keyring the copy can make opens it.
    const store = await openLmdbStore({ dir: path.join(copy, 'state'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    const sealed = store.get<{ secret_key_sealed: string }>(CONFIG_TABLE, `${accessor}/config/client`)!.secret_key_sealed;
    await store.close();
    expect(sealed).toMatch(/^v1:/);
    await expect(Seal.open(copy)).rejects.toThrow('is sealed with an external key');
    const context = `auth-cloud/${accessor}/config/client/secret_key`;
    expect(() => Seal.memory().decrypt(sealed, context)).toThrow(/not in this server's keyring/);

    const env = { HOME: home, NO_COLOR: '1' };
    const noKey = await runCli(['server', `-data-dir=${copy}`, '-port=0', '-client=false'], env);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain(`Error starting server: data directory ${copy} is sealed with an external key (it holds keyring.sealed), and no seal key was given: pass -seal-key-file, set seal { key_file } in the config file, or set SVC_SEAL_KEY`);
    const missing = path.join(work, 'elsewhere.key');
    const missingKey = await runCli(['server', `-data-dir=${copy}`, `-seal-key-file=${missing}`, '-port=0', '-client=false'], env);
    expect(missingKey.code).toBe(1);
    expect(missingKey.stderr).toContain(`seal key file ${missing} does not exist, and data directory ${copy} is sealed with an external key`);
    expect(existsSync(missing)).toBe(false);
    const otherKey = await runCli(['server', `-data-dir=${copy}`, '-port=0', '-client=false'], { ...env, SVC_SEAL_KEY: randomKey() });
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain(`the seal key does not open this data directory (${copy})`);
    expect(readdirSync(copy).sort()).toEqual(['keyring.sealed', 'server-id', 'state']);

    // With the key, the copy is the same server.
    const opened = await startTestServer({ dataDir: copy, sealKey: { file: keyFile }, client: false, cloud: { env: {} } });
    try {
      expect(providerClientConfig(opened.server.services, accessor).secret_key).toBe(SECRET);
      expect((await opened.client(token).secrets('GET', 'auth/token/lookup-self'))?.data?.policies).toEqual(['default']);
    } finally {
      await opened.close();
    }
  });
});

describe('moving a data dir to an external key', () => {
  it('keeps every token working, removes the in-dir keyring, and needs the key from then on', async () => {
    const dataDir = path.join(work, 'move');
    const keyFile = path.join(work, 'move.key');
    const first = await spawnServer([`-data-dir=${dataDir}`, '-port=0', '-client=false'], { HOME: home });
    const root = first.rootToken!;
    expect(first.stdout()).toContain('Seal key: in the data directory');
    const created = await new ApiClient({ address: first.url, token: root }).secrets('POST', 'auth/token/create', { body: { policies: ['default'] } });
    const token = created!.auth!.client_token as string;
    await stop(first);
    expect(existsSync(path.join(dataDir, 'keyring.json'))).toBe(true);

    const moved = await spawnServer([`-data-dir=${dataDir}`, `-seal-key-file=${keyFile}`, '-port=0', '-client=false'], { HOME: home });
    try {
      expect(moved.stdout()).toContain(`Seal key: seal key file ${keyFile}`);
      expect(moved.stderr()).toContain(`keyring moved to the external seal key (seal key file ${keyFile})`);
      expect(moved.stdout()).not.toContain('Root Token');
      expect((await lookupSelf(moved.url, root))?.data?.policies).toEqual(['root']);
      expect((await lookupSelf(moved.url, token))?.data?.policies).toEqual(['default']);
    } finally {
      expect(await stop(moved)).toEqual({ code: 0, signal: null });
    }
    expect(existsSync(path.join(dataDir, 'keyring.json'))).toBe(false);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const without = await runCli(['server', `-data-dir=${dataDir}`, '-port=0', '-client=false'], { HOME: home, NO_COLOR: '1' });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('is sealed with an external key');
  });
});

describe('where the seal key comes from', () => {
  it('-seal-key-file, then seal { key_file } in the config file, then SVC_SEAL_KEY', async () => {
    const fromFlag = path.join(work, 'flag.key');
    const fromConfig = path.join(work, 'config.key');
    const config = path.join(work, 'seal.hcl');
    await writeFile(config, `seal {\n  key_file = "${fromConfig}"\n}\n`);
    const env = { HOME: home, SVC_SEAL_KEY: randomKey() };
    const banner = async (args: string[], dir: string) => {
      const proc = await spawnServer([`-data-dir=${path.join(work, dir)}`, '-port=0', '-client=false', ...args], env);
      await stop(proc);
      return /Seal key: (.*)/.exec(proc.stdout())![1];
    };
    expect(await banner([`-config=${config}`, `-seal-key-file=${fromFlag}`], 'order-1')).toBe(`seal key file ${fromFlag}`);
    expect(existsSync(fromFlag)).toBe(true);
    expect(existsSync(fromConfig)).toBe(false);
    expect(await banner([`-config=${config}`], 'order-2')).toBe(`seal key file ${fromConfig}`);
    expect(existsSync(fromConfig)).toBe(true);
    expect(await banner([], 'order-3')).toBe('SVC_SEAL_KEY');
    expect(readdirSync(path.join(work, 'order-3'))).toContain('keyring.sealed');
  });
});

describe('SVC_SEAL_KEY and the tasks the server runs', () => {
  it('is not in the environment of raw_exec tasks, which get the rest of the server environment', async () => {
    const key = randomKey();
    const proc = await spawnServer([`-data-dir=${path.join(work, 'tasks')}`, '-port=0'], { HOME: home, SVC_SEAL_KEY: key, SEAL_TEST_MARKER: 'kept' });
    try {
      const c = new ApiClient({ address: proc.url, token: proc.rootToken });
      const task = { Name: 't', Driver: 'raw_exec', Config: { command: '/usr/bin/env' }, Resources: { CPU: 20, MemoryMB: 16 } };
      await c.scheduler('POST', '/v1/jobs', {
        body: { Job: { ID: 'envdump', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: [task] }] } },
      });
      const env = { HOME: home, SVC_ADDR: proc.url, SVC_TOKEN: proc.rootToken!, NO_COLOR: '1' };
      const logs = await until(
        () => runCli(['alloc', 'logs', '-job', 'envdump'], env),
        (r) => r.code === 0 && r.stdout.includes('SEAL_TEST_MARKER=kept'),
        'the task to print its environment',
      );
      expect(logs.stdout).not.toContain('SVC_SEAL_KEY');
      expect(logs.stdout).not.toContain(key);
    } finally {
      await stop(proc);
    }
  });
});
