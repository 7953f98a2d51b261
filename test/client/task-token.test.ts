/**
 * A real task with a `vault` block: the node gets its token from the server before it starts and gives
 * it to the task in secrets/vault_token (0600) and VAULT_TOKEN / SVC_TOKEN, with VAULT_ADDR / SVC_ADDR
 * naming the server; `env = false` and `disable_file` keep it out of the environment and the file; the
 * token carries the job's policies and is revoked once the job stops; it never shows in the server's log
 * or `svc alloc status`. And the renewal loop, against the real server: at half the lease, again and again.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';
import { TaskToken, taskTokenPath } from '../../src/client/task-token.js';
import { createLogger } from '../../src/shared/log.js';
import { printedByTask } from '../support/task-output.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

interface LookupSelf {
  data: { policies: string[]; meta: Record<string, string>; expire_time: string };
}

const VAULT = { Role: '', Namespace: '', Cluster: 'default', Env: true, DisableFile: true, ChangeMode: 'restart', ChangeSignal: 'SIGHUP', AllowTokenExpiration: false, Policies: ['app-read'] };

const SCRIPT = 'cat "$NOMAD_SECRETS_DIR/vault_token" 2>/dev/null; echo; echo ==env; env; echo ==end; exec sleep 300';

const task = (name: string, vault: Record<string, unknown>) => ({
  Name: name,
  Driver: 'raw_exec',
  Config: { command: '/bin/sh', args: ['-c', SCRIPT] },
  KillTimeout: 1_000_000_000,
  Resources: { CPU: 20, MemoryMB: 16 },
  Vault: vault,
});

describe('task tokens on a real node', () => {
  let srv: TestServer;
  let alloc: Stub;
  let root: string;
  const logs: string[] = [];
  const output: Record<string, { file: string; env: Record<string, string> }> = {};

  const lookupSelf = async (t: string) => (await srv.client(t).secrets('GET', 'auth/token/lookup-self')) as unknown as LookupSelf;

  const printed = (name: string) => printedByTask(root, name);

  beforeAll(async () => {
    srv = await startTestServer({ logLevel: 'trace', logWrite: (l) => logs.push(l) });
    if (!(await srv.client().secrets('GET', 'sys/mounts'))?.data?.['secret/']) await srv.client().secrets('POST', 'sys/mounts/secret', { body: { type: 'kv', options: { version: '2' } } });
    await srv.client().secrets('PUT', 'secret/data/app/db', { body: { data: { password: 'pw-hidden' } } });
    await srv.client().secrets('PUT', 'sys/policies/acl/app-read', { body: { policy: 'path "secret/data/app/*" {\n  capabilities = ["read"]\n}\n' } });
    await srv.client().scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'tokens',
          Datacenters: ['dc1'],
          TaskGroups: [
            {
              Name: 'g',
              Tasks: [
                task('web', { Policies: ['app-read'] }),
                task('quiet', { Policies: ['app-read'], Env: false, DisableFile: true }),
                // Its token is in neither its environment nor its files, and its template still reads with it.
                {
                  ...task('hidden', { Policies: ['app-read'], Env: false, DisableFile: true }),
                  Templates: [{ DestPath: 'local/db.conf', EmbeddedTmpl: '{{ with secret "secret/data/app/db" }}{{ .Data.data.password }}{{ end }}', ChangeMode: 'noop' }],
                },
              ],
            },
          ],
        },
      },
    });
    [alloc] = await until(
      () => srv.client().scheduler<Stub[]>('GET', '/v1/job/tokens/allocations').then((r) => r.body),
      (l) => l.length === 1 && l[0].ClientStatus === 'running',
      'the allocation to run',
    );
    root = srv.server.services.scheduler.localNodes.get(alloc.NodeID)!.allocDir(alloc.ID)!;
    output.web = await printed('web');
    output.quiet = await printed('quiet');
    output.hidden = await printed('hidden');
  });
  afterAll(async () => srv?.close());

  it("gives the task its token in secrets/vault_token (0600) and its environment, with the server's address", async () => {
    const { file, env } = output.web;
    expect(file).toMatch(/^\S{20,}$/);
    expect(env.VAULT_TOKEN).toBe(file);
    expect(env.SVC_TOKEN).toBe(file);
    expect(env.VAULT_ADDR).toBe(srv.url);
    expect(env.SVC_ADDR).toBe(srv.url);
    expect((await stat(taskTokenPath(path.join(root, 'web/secrets')))).mode & 0o777).toBe(0o600);
  });

  it("makes the token with the job's policies and the allocation in its metadata", async () => {
    const self = (await lookupSelf(output.web.file)).data;
    expect(self.policies).toEqual(['app-read', 'default']);
    expect(self.meta).toEqual({ AllocationID: alloc.ID, JobID: 'tokens', Namespace: 'default', NodeID: alloc.NodeID, Task: 'web' });
  });

  it('keeps the token out of the environment with env = false, and out of the file with disable_file', async () => {
    const { file, env } = output.quiet;
    expect(file).toBe('');
    expect(env.VAULT_TOKEN).toBeUndefined();
    expect(env.SVC_TOKEN).toBeUndefined();
    expect(env.VAULT_ADDR).toBe(srv.url);
    await expect(stat(taskTokenPath(path.join(root, 'quiet/secrets')))).rejects.toThrow(/ENOENT/);
  });

  it("renders a task's template with its token when the task sees it neither in its environment nor in a file", async () => {
    expect(output.hidden.env.VAULT_TOKEN).toBeUndefined();
    expect(output.hidden.file).toBe('');
    expect((await readFile(path.join(root, 'hidden/local/db.conf'), 'utf8')).trim()).toBe('pw-hidden');
  });

  it('never shows the token in the server log or the allocation as the API and `alloc status` answer it', async () => {
    const token = output.web.file;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((l) => l.includes(token))).toEqual([]);
    const answer = await srv.client().request('GET', `/v1/allocation/${alloc.ID}`);
    expect(answer.body.toString()).not.toContain(token);
    const status = await srv.cli(['alloc', 'status', '-verbose', alloc.ID]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('web');
    expect(status.stdout).not.toContain(token);
  });

  it('revokes the token once the job stops', async () => {
    const token = output.web.file;
    await srv.client().scheduler('DELETE', '/v1/job/tokens');
    await until(
      () => statusOf(srv.client(token).secrets('GET', 'auth/token/lookup-self')),
      (s) => s.code === 403,
      'the token to be revoked',
    );
  });

  it('replaces a token that can no longer be renewed, in its file, and tells the task', async () => {
    const create = async () => String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['app-read'], ttl: '1h' } }))?.auth?.client_token);
    const first = await create();
    let second = '';
    const secretsDir = await mkdtemp(path.join(tmpdir(), 'svc-task-token-'));
    let told!: () => void;
    const replaced = new Promise<void>((resolve) => (told = resolve));
    const token = new TaskToken({
      allocId: 'unused',
      task: 'web',
      vault: { ...VAULT, DisableFile: false },
      secretsDir,
      log: createLogger('error', () => undefined),
      onReplaced: () => told(),
      source: {
        address: srv.url,
        derive: async () => {
          second = second === '' ? first : await create();
          return { token: second, leaseSeconds: 3600 };
        },
        renew: async (t) => Number((await srv.client(t).secrets('PUT', 'auth/token/renew-self', { body: {} }))?.auth?.lease_duration),
      },
    });
    try {
      await token.prepare();
      expect(await readFile(taskTokenPath(secretsDir), 'utf8')).toBe(first);
      await srv.client().secrets('PUT', 'auth/token/revoke', { body: { token: first } });
      await token.renewNow();
      await replaced;
      expect(second).not.toBe(first);
      expect(await readFile(taskTokenPath(secretsDir), 'utf8')).toBe(second);
      expect(token.env().VAULT_TOKEN).toBe(second);
    } finally {
      token.stop();
      await rm(secretsDir, { recursive: true, force: true });
    }
  });

  it('renews the token at half its lease, for as long as it runs', async () => {
    // A short lease, so that the loop renews within the test: the token role's period is days.
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['app-read'], ttl: '2s', explicit_max_ttl: '1h' } });
    const secret = String(created?.auth?.client_token);
    const renewals: number[] = [];
    const token = new TaskToken({
      allocId: 'unused',
      task: 'web',
      vault: VAULT,
      secretsDir: root,
      log: createLogger('error', () => undefined),
      source: {
        address: srv.url,
        derive: async () => ({ token: secret, leaseSeconds: 2 }),
        renew: async (t) => {
          const answer = await srv.client(t).secrets('PUT', 'auth/token/renew-self', { body: { increment: '2s' } });
          renewals.push(Number(answer?.auth?.lease_duration));
          return Number(answer?.auth?.lease_duration);
        },
      },
    });
    const before = (await lookupSelf(secret)).data.expire_time;
    await token.prepare();
    expect(token.env().VAULT_TOKEN).toBe(secret);
    const after = await until(
      async () => (await lookupSelf(secret)).data.expire_time,
      (t) => t > before && renewals.length >= 2,
      'two renewals',
    );
    token.stop();
    expect(after > before).toBe(true);
    expect(renewals.every((r) => r > 0)).toBe(true);
  });
});
