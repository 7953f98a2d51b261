/**
 * How the built bin/svc fails: never with a stack trace. A failure nothing expected (here, an incomplete
 * install: a bundle missing or one that throws after it loaded) is one line, `Error: <message>`, with the
 * stack only under SVC_DEBUG=1; a refusal (403) when no token is set at all says how to log in.
 */
import { spawnSync } from 'node:child_process';
import { cp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeTempDir, startTestServer, type TestServer } from '../support/server.js';

const HINT = 'no token is set: run `svc login` or set SVC_TOKEN';

describe('an incomplete install', () => {
  let root: string;

  beforeAll(async () => {
    // A copy of bin/ and dist/ to break; the packages come from the repository's node_modules.
    root = await makeTempDir('svc-broken-install-');
    await cp(path.join(REPO, 'bin'), path.join(root, 'bin'), { recursive: true });
    // Not the single executable, when `npm run package` left one: 100 MB the copy does not need.
    await cp(path.join(REPO, 'dist'), path.join(root, 'dist'), { recursive: true, filter: (src) => path.basename(src) !== 'svc-linux-x64' });
    await symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const svc = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin/svc'), ...args], {
      env: { PATH: process.env.PATH, HOME: root, NO_COLOR: '1', SVC_ADDR: 'http://127.0.0.1:1', ...env },
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('a missing bundle of a command subtree: one line, exit 1; the stack with SVC_DEBUG=1', async () => {
    await unlink(path.join(root, 'dist/cli-job.cjs'));
    expect(svc(['job', 'status'])).toEqual({ code: 1, stdout: '', stderr: "Error: Cannot find module './cli-job.cjs'\n" });
    const debug = svc(['job', 'status'], { SVC_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^Error: Cannot find module '\.\/cli-job\.cjs'\nError: Cannot find module '\.\/cli-job\.cjs'\nRequire stack:\n[^]*\n {4}at /);
  });

  it('an exception thrown after the bundle loaded: one line, exit 1', async () => {
    await writeFile(path.join(root, 'dist/cli-alloc.cjs'), "setTimeout(() => { throw new Error('thrown later'); });\nmodule.exports = { commands: [] };\n");
    // The bare group: its help goes to stdout, so stderr holds only what the failure printed.
    const r = svc(['alloc']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: thrown later\n');
  });

  it('a promise rejected with nobody waiting for it: one line, exit 1; the stack with SVC_DEBUG=1', async () => {
    await writeFile(path.join(root, 'dist/cli-alloc.cjs'), "Promise.reject(new Error('rejected later'));\nmodule.exports = { commands: [] };\n");
    expect(svc(['alloc'])).toMatchObject({ code: 1, stderr: 'Error: rejected later\n' });
    expect(svc(['alloc'], { SVC_DEBUG: '1' }).stderr).toMatch(/^Error: rejected later\nError: rejected later\n {4}at /);
  });

  it('no CLI bundle at all: one line, exit 1', async () => {
    await unlink(path.join(root, 'dist/main.cjs'));
    const r = svc(['version']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: svc is not built: ${path.join(root, 'bin/../dist/main.cjs')} is missing; run \`npm run build\` in its repository, or install it again\n`);
  });
});

describe('permission denied', () => {
  let srv: TestServer;
  let home: string;
  let limited: string;

  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    home = await makeTempDir('svc-no-token-');
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } });
    limited = created!.auth!.client_token as string;
  });

  afterAll(async () => {
    await srv?.close();
    await rm(home, { recursive: true, force: true });
  });

  /** No -token, no SVC_TOKEN, and a home without a token file. */
  const tokenless = (args: string[], env: Record<string, string> = {}) => srv.cli(args, { token: '', env: { HOME: home, ...env } });

  it('with no token set at all, says how to log in: secrets commands (exit 2) and scheduler commands (exit 1)', async () => {
    const secrets = await tokenless(['read', 'sys/auth']);
    expect(secrets.code).toBe(2);
    expect(secrets.stderr).toContain(`Code: 403. Errors:\n\n* permission denied\n* ${HINT}\n`);
    const scheduler = await tokenless(['job', 'status']);
    expect(scheduler.code).toBe(1);
    expect(scheduler.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(scheduler.stderr).toContain('403');
    expect(scheduler.stderr).toContain(HINT);
  });

  it('says nothing of logging in when a token was given, however it was given', async () => {
    for (const run of [
      () => srv.cli(['read', 'sys/auth'], { token: limited, env: { HOME: home } }),
      () => tokenless(['read', 'sys/auth', `-token=${limited}`]),
      async () => {
        await writeFile(path.join(home, '.svc-token'), 'svc.not-a-token');
        try {
          return await tokenless(['read', 'sys/auth']);
        } finally {
          await rm(path.join(home, '.svc-token'));
        }
      },
    ]) {
      const r = await run();
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Code: 403.');
      expect(r.stderr).not.toContain('no token is set');
    }
  });
});
