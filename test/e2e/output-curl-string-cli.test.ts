import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli, startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let closedAddr: string;
let home: string;

/** An address nothing listens on: a port the system gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  ts = await startTestServer();
  closedAddr = `http://127.0.0.1:${await closedPort()}`;
  home = await makeTempDir('svc-home-');
});

afterAll(async () => {
  await ts?.close();
});

const offline = (args: string[], env: Record<string, string> = {}) => runCli(args, { HOME: home, SVC_ADDR: closedAddr, SVC_TOKEN: 's.secret-token', ...env });

describe('-output-curl-string', () => {
  it('prints a read as curl, with the token as $(svc print token), and sends nothing', async () => {
    const run = await offline(['read', '-output-curl-string', 'sys/policies/acl/ci']);
    expect(run).toEqual({ code: 0, stderr: '', stdout: `curl -H "X-Svc-Token: $(svc print token)" ${closedAddr}/v1/sys/policies/acl/ci\n` });
    expect(run.stdout).not.toContain('s.secret-token');
  });

  it('prints a write with its method and JSON body, single quotes escaped for the shell', async () => {
    const run = await offline(['write', '-output-curl-string', 'sys/policies/acl/ci', `policy=path "it's/*" { capabilities = ["read"] }`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `curl -X PUT -H "X-Svc-Token: $(svc print token)" -H "Content-Type: application/json" ` +
        `-d '{"policy":"path \\"it'"'"'s/*\\" { capabilities = [\\"read\\"] }"}' ${closedAddr}/v1/sys/policies/acl/ci\n`,
    );
  });

  it('prints the first request of a scheduler command, its query quoted for the shell', async () => {
    const run = await offline(['job', 'status', '-output-curl-string', '-namespace=team-a', 'web']);
    expect(run).toEqual({ code: 0, stderr: '', stdout: `curl -H "X-Svc-Token: $(svc print token)" '${closedAddr}/v1/jobs?namespace=team-a&prefix=web'\n` });
  });

  it('adds the TLS flags as curl options and leaves out the token header when there is none', async () => {
    const run = await runCli(['read', '-output-curl-string', '-tls-skip-verify', '-ca-cert=/etc/ca.pem', '-client-cert=c.pem', '-client-key=k.pem', 'sys/auth'], { HOME: home, SVC_ADDR: closedAddr });
    expect(run).toMatchObject({ code: 0, stdout: `curl --insecure --cacert '/etc/ca.pem' --cert 'c.pem' --key 'k.pem' ${closedAddr}/v1/sys/auth\n` });
  });

  it('does not change anything on a live server', async () => {
    const run = await ts.cli(['policy', 'write', '-output-curl-string', 'never-written', '-'], { input: 'path "a" { capabilities = ["read"] }' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^curl -X PUT .* -d '.*' http:\/\/127\.0\.0\.1:\d+\/v1\/sys\/policies\/acl\/never-written\n$/);
    expect((await ts.cli(['policy', 'read', 'never-written'])).code).toBe(2);
  });
});

describe('svc print token', () => {
  it('prints -token first, then SVC_TOKEN, then the token file', async () => {
    const tokenHome = await makeTempDir('svc-home-');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${tokenHome}/.svc-token`, 's.from-file\n');
    expect((await runCli(['print', 'token', '-token=s.from-flag'], { HOME: tokenHome, SVC_TOKEN: 's.from-env' })).stdout).toBe('s.from-flag\n');
    expect((await runCli(['print', 'token'], { HOME: tokenHome, SVC_TOKEN: 's.from-env' })).stdout).toBe('s.from-env\n');
    expect((await runCli(['print', 'token'], { HOME: tokenHome })).stdout).toBe('s.from-file\n');
  });

  it('fails with a hint when no token is set', async () => {
    const run = await runCli(['print', 'token'], { HOME: home });
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'Error: no token is set: run `svc login` or set SVC_TOKEN\n' });
  });
});
