/**
 * Workload identities on a real node: a raw_exec task with `identity { env = true, file = true }` gets a
 * JWT in NOMAD_TOKEN and secrets/nomad_token (0600) whose RS256 signature verifies against the server's
 * /.well-known/jwks.json (kid in its header) and whose claims are Nomad's; a task without the block gets
 * none; an identity with a ttl is signed again before it expires (its change_mode applied); a filepath
 * outside the task's directory is refused; the JWT never shows in the server's log, the allocation as the
 * API answers it, or `alloc status -json`; the signing key is sealed at rest.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';
import { printedByTask } from '../support/task-output.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

const SCRIPT = 'cat "$NOMAD_SECRETS_DIR/nomad_token" 2>/dev/null; echo; echo ==env; env; echo ==end; exec sleep 300';

const task = (name: string, identity?: Record<string, unknown>) => ({
  Name: name,
  Driver: 'raw_exec',
  Config: { command: '/bin/sh', args: ['-c', SCRIPT] },
  KillTimeout: 1_000_000_000,
  Resources: { CPU: 20, MemoryMB: 16 },
  ...(identity ? { Identity: identity } : {}),
});

const HOUR_NS = 3600 * 1_000_000_000;

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('workload identities on a real node', () => {
  let srv: TestServer;
  let alloc: Stub;
  let root: string;
  const logs: string[] = [];
  const output: Record<string, { file: string; env: Record<string, string> }> = {};

  const printed = (name: string) => printedByTask(root, name);

  /** The server's key set, read as a verifier would: over HTTP, with no token. */
  async function jwks(): Promise<{ keys: (JsonWebKey & { kid: string; alg: string; use: string })[] }> {
    const res = await fetch(`${srv.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    return (await res.json()) as { keys: (JsonWebKey & { kid: string; alg: string; use: string })[] };
  }

  /** Runs a one-task job and answers its allocation once it is placed (and running, unless `status` says otherwise). */
  async function runJob(id: string, t: Record<string, unknown>, status = 'running'): Promise<Stub> {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: id, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [t] }] } } });
    const [placed] = await until(
      () => srv.client().scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body),
      (l) => l.length === 1 && (status === 'pending' || l[0].ClientStatus === status),
      `job ${id} placed`,
    );
    return placed;
  }

  async function taskEvents(allocId: string, name: string): Promise<{ Type: string; DisplayMessage: string }[]> {
    const { body } = await srv.client().scheduler<{ TaskStates: Record<string, { Events: { Type: string; DisplayMessage: string }[] }> | null }>('GET', `/v1/allocation/${allocId}`);
    return body.TaskStates?.[name]?.Events ?? [];
  }

  beforeAll(async () => {
    srv = await startTestServer({ logLevel: 'trace', logWrite: (l) => logs.push(l) });
    await srv.client().scheduler('POST', '/v1/jobs', {
      body: {
        Job: {
          ID: 'ids',
          Datacenters: ['dc1'],
          TaskGroups: [
            {
              Name: 'g',
              Tasks: [task('web', { Env: true, File: true, TTL: HOUR_NS }), task('plain'), task('rotating', { File: true, TTL: 2_000_000_000 })],
            },
          ],
        },
      },
    });
    [alloc] = await until(
      () => srv.client().scheduler<Stub[]>('GET', '/v1/job/ids/allocations').then((r) => r.body),
      (l) => l.length === 1 && l[0].ClientStatus === 'running',
      'the allocation to run',
    );
    root = srv.server.services.scheduler.localNodes.get(alloc.NodeID)!.allocDir(alloc.ID)!;
    output.web = await printed('web');
    output.plain = await printed('plain');
  });
  afterAll(async () => srv?.close());

  it('gives the task its JWT in NOMAD_TOKEN and secrets/nomad_token (0600)', async () => {
    const { file, env } = output.web;
    expect(file.split('.')).toHaveLength(3);
    expect(env.NOMAD_TOKEN).toBe(file);
    expect((await stat(path.join(root, 'web/secrets/nomad_token'))).mode & 0o777).toBe(0o600);
    // The identity attributes Nomad sets always, beside it.
    expect(env).toMatchObject({ NOMAD_JOB_ID: 'ids', NOMAD_ALLOC_ID: alloc.ID, NOMAD_NAMESPACE: 'default', NOMAD_TASK_NAME: 'web', NOMAD_GROUP_NAME: 'g' });
  });

  it('signs it with RS256 under the key /.well-known/jwks.json serves, kid in the header', async () => {
    const [header, payload, signature] = output.web.file.split('.');
    const { keys } = await jwks();
    expect(keys).toHaveLength(1);
    const [jwk] = keys;
    expect(decodePart(header)).toEqual({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' });
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwk).not.toHaveProperty('d');
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    // Any change to the claims breaks the signature.
    const forged = Buffer.from(JSON.stringify({ ...decodePart(payload), nomad_job_id: 'other' })).toString('base64url');
    expect(verify('sha256', Buffer.from(`${header}.${forged}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(false);
  });

  it("carries Nomad's claims: namespace, job, allocation, task, subject, audience, times, an ID", () => {
    const claims = decodePart(output.web.file.split('.')[1]);
    expect(claims).toEqual({
      nomad_namespace: 'default',
      nomad_job_id: 'ids',
      nomad_allocation_id: alloc.ID,
      nomad_task: 'web',
      sub: 'global:default:ids:g:web:default',
      aud: [expect.any(String)],
      iat: expect.any(Number),
      nbf: claims.iat,
      exp: (claims.iat as number) + 3600,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(600);
  });

  it('gives a task without the identity block no token, in its environment or its secrets', async () => {
    expect(output.plain.file).toBe('');
    expect(output.plain.env.NOMAD_TOKEN).toBeUndefined();
    expect(output.plain.env.NOMAD_JOB_ID).toBe('ids');
    await expect(stat(path.join(root, 'plain/secrets/nomad_token'))).rejects.toThrow(/ENOENT/);
  });

  it('signs an identity with a ttl again before it expires, rewriting its file', async () => {
    const file = path.join(root, 'rotating/secrets/nomad_token');
    const first = await until(
      () => readFile(file, 'utf8').catch(() => ''),
      (t) => t !== '',
      'the first identity',
    );
    const second = await until(
      () => readFile(file, 'utf8'),
      (t) => t !== first,
      'the identity to be signed again',
    );
    const [a, b] = [first, second].map((jwt) => decodePart(jwt.split('.')[1]));
    expect(b.exp as number).toBeGreaterThan(a.exp as number);
    expect(b.jti).not.toBe(a.jti);
  });

  it('never shows the JWT in the server log, the allocation the API answers or `alloc status -json`', async () => {
    const jwt = output.web.file;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((l) => l.includes(jwt) || l.includes(jwt.split('.')[2]))).toEqual([]);
    const answer = await srv.client().request('GET', `/v1/allocation/${alloc.ID}`);
    expect(answer.body.toString()).not.toContain(jwt.split('.')[2]);
    const status = await srv.cli(['alloc', 'status', '-json', alloc.ID]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ID: alloc.ID });
    expect(status.stdout).not.toContain(jwt.split('.')[2]);
  });

  it('keeps the signing key sealed in the store', () => {
    const stored = srv.server.services.store.get<Record<string, unknown>>('workload-identity-keys', 'active');
    expect(stored).toBeDefined();
    const text = JSON.stringify(stored);
    expect(text).not.toContain('PRIVATE KEY');
    expect(String(stored!.sealedPrivateKey)).toMatch(/^v1:/);
  });

  it("restarts a task whose identity is signed again with change_mode restart, in Nomad's words", async () => {
    const restarted = await runJob('ids-restart', task('app', { File: true, TTL: 2_000_000_000, ChangeMode: 'restart' }));
    const event = await until(
      () => taskEvents(restarted.ID, 'app'),
      (events) => events.some((e) => e.Type === 'Restart Signaled'),
      'the restart for the new identity',
    );
    expect(event.find((e) => e.Type === 'Restart Signaled')?.DisplayMessage).toBe('Identity[default]: new token acquired');
  });

  it('refuses a filepath outside the task directory, before the task starts', async () => {
    const escaping = await runJob('ids-escape', task('app', { File: true, Filepath: '../../escaped' }), 'pending');
    const events = await until(
      () => taskEvents(escaping.ID, 'app'),
      (list) => list.some((e) => e.Type === 'Task hook failed'),
      'the hook failure',
    );
    expect(events.find((e) => e.Type === 'Task hook failed')?.DisplayMessage).toContain('identity filepath "../../escaped" must be a path inside the task\'s directory');
    expect(events.map((e) => e.Type)).not.toContain('Started');
  });

  it('signs only for the node the allocation is placed on', async () => {
    const route = `/v1/node/${alloc.NodeID}/sign-identities`;
    const body = { AllocID: alloc.ID, Tasks: ['web'] };
    // A token, even the root token, is not the node's secret.
    expect((await statusOf(srv.client().scheduler('POST', route, { body }))).code).toBe(403);
    expect((await statusOf(srv.client('').scheduler('POST', route, { body }))).code).toBe(403);
  });
});
