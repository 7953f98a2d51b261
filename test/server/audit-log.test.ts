/**
 * The file audit device through the real server: one request and one response line per request of
 * both APIs, no secret the test knows anywhere in the file, the hashes findable with sys/audit-hash
 * (through bin/svc), the HMAC key kept sealed across restarts, and requests refused with 500 "audit
 * log unavailable" when the log cannot take their request or their answer.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { getNamespace, upsertNamespace } from '../../src/scheduler/state/namespaces.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { makeTempDir, startTestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';
import { signedCallerIdentity, startLoginWorld, type LoginWorld } from '../secrets/auth/cloud/login/login-support.js';

interface Line {
  time: string;
  type: 'request' | 'response';
  auth: Record<string, unknown>;
  request: { id: string; operation: string; path: string; remote_address: string; namespace: { id: string }; data?: Record<string, unknown> };
  response?: { status: number; data?: unknown; auth?: Record<string, unknown> };
  error: string;
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('svc-audit-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readLines = async (file: string): Promise<Line[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

describe('an audit log of logins, token creates, secret-bearing writes and scheduler requests', () => {
  let w: LoginWorld;
  let auditFile: string;
  /** every secret value the test sent or was given */
  const secrets: string[] = [];
  const PASSWORD = 'db-pa55w0rd-kept-out-of-the-log';
  let createdToken: string;

  beforeAll(async () => {
    auditFile = path.join(dir, 'audit.log');
    w = await startLoginWorld({ server: { auditFile } });
    const root = w.srv.client();
    secrets.push(w.srv.rootToken, w.sim.rootCredentials.secretAccessKey);

    // A secret-bearing config write: config/client's secret_key (another mount than the login world's).
    await root.secrets('POST', 'sys/auth/cloud-audit', { body: { type: 'cloud' } });
    const SECRET_KEY = 'aUdIt/SeCrEt+KeY0123456789abcdefghijklmnop';
    await root.secrets('POST', 'auth/cloud-audit/config/client', { body: { access_key: 'AKIAAUDIT', secret_key: SECRET_KEY } });
    secrets.push(SECRET_KEY);

    // Token creates, with the answer's token and accessor, and a custom token id.
    const created = await root.secrets('POST', 'auth/token/create', { body: { policies: ['default'], meta: { owner: 'audit-test' } } });
    createdToken = created!.auth!.client_token as string;
    secrets.push(createdToken, created!.auth!.accessor as string);
    const customId = 'custom-token-id-for-the-audit-test';
    await root.secrets('POST', 'auth/token/create', { body: { policies: ['default'], id: customId } });
    secrets.push(customId);
    // The created token at work: a login with it (svc login looks the token up) and a request of its own.
    const login = await w.srv.cli(['login', createdToken]);
    expect(login.code, login.stderr).toBe(0);
    await w.srv.client(createdToken).secrets('GET', 'auth/token/lookup-self');

    // ec2 logins: the server's nonce in the answer, then a client's own nonce.
    await w.writeRole('ec2', { auth_type: 'ec2', bound_account_id: w.sim.account });
    const inst = w.sim.addInstance({});
    const ec2 = await w.login({ role: 'ec2', pkcs7: (await w.documents(inst.instanceId)).rsa2048 });
    secrets.push(ec2.auth.client_token, ec2.auth.accessor, ec2.auth.metadata!.nonce);
    const other = w.sim.addInstance({});
    const ownNonce = 'client-chosen-nonce-for-the-audit-test';
    const ec2own = await w.login({ role: 'ec2', pkcs7: (await w.documents(other.instanceId)).rsa2048, nonce: ownNonce });
    secrets.push(ownNonce, ec2own.auth.client_token);

    // An iam login: a signed request whose headers carry the caller's key id and signature.
    const alice = w.sim.addUser({ name: 'alice' });
    await w.writeRole('iam', { bound_iam_principal_arn: alice.arn });
    const iam = await w.login({ role: 'iam', ...signedCallerIdentity(alice) });
    secrets.push(iam.auth.client_token, alice.secretAccessKey);

    // Scheduler requests: a node registering with its secret and speaking with it, a job with a
    // password in its environment, read back.
    const node = fakeNode();
    await registerFakeNode(root, node);
    await new ApiClient({ address: w.srv.url, token: node.secret }).scheduler('PUT', `/v1/node/${node.node.ID}/heartbeat`);
    secrets.push(node.secret);
    const job = path.join(dir, 'audited.nomad.hcl');
    await writeFile(
      job,
      `job "audited" {\n  type = "batch"\n  group "g" {\n    task "t" {\n      driver = "mock"\n      config {\n        run_for = "1s"\n      }\n` +
        `      env {\n        DB_PASSWORD = "${PASSWORD}"\n      }\n    }\n  }\n}\n`,
    );
    const run = await w.srv.cli(['job', 'run', '-detach', job]);
    expect(run.code, run.stderr).toBe(0);
    const inspect = await w.srv.cli(['job', 'inspect', 'audited']);
    expect(inspect.stdout).toContain(PASSWORD);
    secrets.push(PASSWORD);
    await root.scheduler('GET', '/v1/jobs');
  });
  afterAll(async () => w?.close());

  it('no token, secret key, nonce or password the test knows is anywhere in the file', async () => {
    const text = await readFile(auditFile, 'utf8');
    expect(text.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(s.length).toBeGreaterThan(8);
      expect(text.includes(s), `found ${s}`).toBe(false);
      expect(text.includes(Buffer.from(s).toString('base64')), `found ${s} in base64`).toBe(false);
    }
  });

  it('is one JSON line per request and one per response, each request answered once, after it', async () => {
    const lines = await readLines(auditFile);
    const byId = new Map<string, Line[]>();
    for (const l of lines) byId.set(l.request.id, [...(byId.get(l.request.id) ?? []), l]);
    expect(byId.size).toBeGreaterThan(20);
    for (const [id, pair] of byId) expect(pair.map((l) => l.type), id).toEqual(['request', 'response']);
    const paths = new Set(lines.map((l) => l.request.path));
    for (const p of ['auth/token/create', 'auth/cloud/login', 'auth/cloud-audit/config/client', 'auth/token/lookup-self', 'node/register', 'jobs'])
      expect(paths, p).toContain(p);
    expect((await stat(auditFile)).mode & 0o777).toBe(0o600);
  });

  it("writes Vault's fields: the caller's auth, the request, the response with its status, strings HMAC'd", async () => {
    const lines = await readLines(auditFile);
    const create = lines.find((l) => l.type === 'response' && l.request.path === 'auth/token/create' && l.request.data?.meta)!;
    expect(create.auth).toMatchObject({ display_name: 'root', policies: ['root'], token_policies: ['root'], token_type: 'service' });
    expect(create.auth.client_token).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(create.auth.accessor).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(create.request).toMatchObject({ operation: 'update', remote_address: '127.0.0.1', namespace: { id: 'root' } });
    expect(create.request.data).toEqual({ policies: [expect.stringMatching(/^hmac-sha256:/)], meta: { owner: expect.stringMatching(/^hmac-sha256:/) } });
    expect(create.response!.status).toBe(200);
    expect(create.response!.auth).toMatchObject({ client_token: expect.stringMatching(/^hmac-sha256:/), policies: ['default'], token_type: 'service' });
    expect(create.error).toBe('');
    expect(Date.parse(create.time)).not.toBeNaN();

    const login = lines.find((l) => l.type === 'response' && l.request.path === 'auth/cloud/login' && (l.response!.auth?.metadata as Record<string, unknown>)?.nonce)!;
    expect(login.auth).toEqual({});
    expect((login.response!.auth!.metadata as Record<string, string>).nonce).toMatch(/^hmac-sha256:/);

    const job = lines.find((l) => l.type === 'response' && l.request.path === 'job/audited' && l.request.operation === 'read')!;
    expect(job.request.namespace).toEqual({ id: 'default' });
    expect(job.response!.status).toBe(200);
    const env = (job.response!.data as { TaskGroups: Array<{ Tasks: Array<{ Env: Record<string, string> }> }> }).TaskGroups[0].Tasks[0].Env;
    expect(env.DB_PASSWORD).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // A listing is streamed after its answer's line is written: the line has its status only.
    const jobs = lines.find((l) => l.type === 'response' && l.request.path === 'jobs' && l.request.operation === 'read')!;
    expect(jobs.response).toEqual({ status: 200 });

    // A node's secret is no token: only its hash is known of the caller.
    const beat = lines.find((l) => l.type === 'request' && /^node\/[^/]+\/heartbeat$/.test(l.request.path))!;
    expect(beat.auth).toEqual({ client_token: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) });

    // A listing through GET ?list=true is a `list`, as Vault names it.
    await w.srv.client().secrets('GET', 'sys/policies/acl', { query: { list: 'true' } });
    const listed = (await readLines(auditFile)).filter((l) => l.request.path === 'sys/policies/acl').at(-1)!;
    expect(listed.request.operation).toBe('list');
    expect(listed.request.data).toEqual({ list: expect.stringMatching(/^hmac-sha256:/) });

    // A refusal is logged with its error, as it was answered.
    await statusOf(w.srv.client('').secrets('GET', 'sys/policies/acl'));
    const refused = (await readLines(auditFile)).filter((l) => l.request.path === 'sys/policies/acl').at(-1)!;
    expect(refused.response).toEqual({ status: 403 });
    expect(refused.error).toBe('permission denied');
  });

  it('svc computes the hash of a known token (sys/audit-hash/file) and finds it as the client_token', async () => {
    const hashed = await w.srv.cli(['write', '-field=hash', 'sys/audit-hash/file', `input=${createdToken}`]);
    expect(hashed.code, hashed.stderr).toBe(0);
    const hash = hashed.stdout.trim();
    expect(hash).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const lines = await readLines(auditFile);
    const own = lines.filter((l) => l.auth.client_token === hash);
    expect(own.map((l) => l.request.path)).toContain('auth/token/lookup-self');
    // The token's create answer carries the same hash.
    expect(lines.some((l) => l.response?.auth?.client_token === hash)).toBe(true);
    expect(w.srv.server.services.audit!.hash(createdToken)).toBe(hash);
  });
});

describe('sys/audit-hash', () => {
  it('needs an audit device at the path asked, and a token allowed on it', async () => {
    const plain = await startTestServer({ client: false });
    try {
      expect(await statusOf(plain.client().secrets('POST', 'sys/audit-hash/file', { body: { input: 'x' } }))).toEqual({
        code: 400,
        message: 'unknown audit device "file": no audit device is configured (-audit-file, or audit { file } in the config file)',
      });
    } finally {
      await plain.close();
    }
    const srv = await startTestServer({ client: false, auditFile: path.join(dir, 'hash.log') });
    try {
      expect(await statusOf(srv.client().secrets('POST', 'sys/audit-hash/syslog', { body: { input: 'x' } }))).toEqual({
        code: 400,
        message: 'unknown audit device "syslog": the audit device is at "file"',
      });
      expect((await statusOf(srv.client().secrets('POST', 'sys/audit-hash/file', { body: {} }))).code).toBe(400);
      const token = (await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } }))!.auth!.client_token as string;
      expect((await statusOf(srv.client(token).secrets('POST', 'sys/audit-hash/file', { body: { input: 'x' } }))).code).toBe(403);
    } finally {
      await srv.close();
    }
  });
});

describe('the audit HMAC key', () => {
  it('is kept sealed in the store, so hashes stay the same across restarts; another server hashes differently', async () => {
    const dataDir = path.join(dir, 'hmac-data');
    const auditFile = path.join(dir, 'hmac.log');
    const first = await startTestServer({ dataDir, auditFile, client: false });
    const hash = first.server.services.audit!.hash('svc.some-token');
    const stored = first.server.services.store.get<string>('meta', 'audit_hmac_key');
    expect(stored).toMatch(/^v1:/);
    await first.close();
    const again = await startTestServer({ dataDir, auditFile, client: false });
    expect(again.server.services.audit!.hash('svc.some-token')).toBe(hash);
    await again.close();
    const other = await startTestServer({ auditFile: path.join(dir, 'hmac-other.log'), client: false });
    expect(other.server.services.audit!.hash('svc.some-token')).not.toBe(hash);
    await other.close();
  });
});

describe('the audit file', () => {
  it('is appended to, never truncated, and an existing one open to others is made 0600', async () => {
    const auditFile = path.join(dir, 'existing.log');
    await writeFile(auditFile, '{"earlier":"line"}\n', { mode: 0o644 });
    fs.chmodSync(auditFile, 0o644);
    const srv = await startTestServer({ auditFile, client: false });
    try {
      await srv.client().secrets('GET', 'auth/token/lookup-self');
      expect((await stat(auditFile)).mode & 0o777).toBe(0o600);
      const text = await readFile(auditFile, 'utf8');
      expect(text.startsWith('{"earlier":"line"}\n')).toBe(true);
      expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    } finally {
      await srv.close();
    }
  });

  it('that cannot be opened stops the server from starting, naming it', async () => {
    const nowhere = path.join(dir, 'no-such-dir', 'audit.log');
    await expect(startTestServer({ auditFile: nowhere, client: false })).rejects.toThrow(`cannot open audit log ${nowhere}: no such file or directory`);
  });
});

describe('a log that cannot take a line', () => {
  it('refuses the request before it is served, on both APIs (500 "audit log unavailable"); health still answers', async () => {
    // /dev/full takes the open and refuses every write (ENOSPC): a disk that filled up.
    const before = fs.statSync('/dev/full').mode;
    const srv = await startTestServer({ auditFile: '/dev/full', client: false });
    try {
      const tokens = () => srv.server.services.tokens.listAccessors().length;
      const count = tokens();
      expect(await statusOf(srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } }))).toEqual({
        code: 500,
        message: 'audit log unavailable',
      });
      expect(tokens()).toBe(count);
      expect(await statusOf(srv.client().scheduler('PUT', '/v1/namespace/unaudited', { body: { Name: 'unaudited' } }))).toEqual({
        code: 500,
        message: 'audit log unavailable',
      });
      expect(getNamespace(srv.server.services.store, 'unaudited')).toBeUndefined();
      expect(await statusOf(srv.client('').secrets('GET', 'sys/health'))).toEqual({ code: 200, message: '' });
    } finally {
      await srv.close();
    }
    // A device is written to as it is: its mode is not touched.
    expect(fs.statSync('/dev/full').mode).toBe(before);
  });

  it('withholds an answer whose response line cannot be written', async () => {
    const fifo = path.join(dir, 'audit.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    // A non-blocking reader, so the test can close it while the server still writes.
    const reader = new net.Socket({ fd: fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK), readable: true, writable: false });
    let seen = '';
    reader.on('data', (d: Buffer) => (seen += d.toString('utf8')));
    const srv = await startTestServer({ auditFile: fifo, client: false });
    try {
      const root = srv.client();
      const { index } = await root.scheduler('GET', '/v1/namespaces');
      // A blocking query: its request line is written, then it waits for a namespace change.
      const waiting = statusOf(root.scheduler('GET', '/v1/namespaces', { query: { index, wait: '60s' } }));
      await until(async () => seen, (s) => s.includes(`"type":"request"`) && s.split('\n').filter(Boolean).length === 3, 'the blocking request line');
      reader.destroy();
      // The reader is gone: the answer's line fails (EPIPE), and so does the answer.
      await upsertNamespace(srv.server.services.store, { Name: 'changed' });
      expect(await waiting).toEqual({ code: 500, message: 'audit log unavailable' });
    } finally {
      reader.destroy();
      await srv.close();
    }
  });
});
