/**
 * The CLI against servers over TLS: -ca-cert, -tls-skip-verify, -tls-server-name, -client-cert and
 * -client-key with their SVC_* variables (flags win), a TLS failure as one line saying which check
 * failed and what to pass, and `alloc exec` (a WebSocket) over TLS with a client certificate.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, runCli, startTestServer, type CliResult, type TestServer } from '../support/server.js';
import { writeTestPki, type TestPkiFiles } from '../support/tls.js';
import { runningAlloc, sleeper } from '../support/exec-cli.js';

let dir: string;
let pki: TestPkiFiles;

beforeAll(async () => {
  dir = await makeTempDir('svc-cli-tls-');
  pki = await writeTestPki(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `svc node status` with only the given environment (no SVC_CACERT unless given). */
const nodeStatus = (srv: TestServer, args: string[], env: Record<string, string> = {}) =>
  runCli(['node', 'status', ...args], { HOME: dir, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1', ...env });

/** The failure is one `Error:` line, without a stack. */
function oneErrorLine(r: CliResult): string {
  expect(r.code, r.stdout).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Error: cannot reach the server at https:\/\//);
  return lines[0];
}

describe('a server with a certificate from the test CA', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ client: false, tls: { certFile: pki.serverCert, keyFile: pki.serverKey } });
  });
  afterAll(async () => srv?.close());

  it('answers with -ca-cert or SVC_CACERT', async () => {
    expect((await nodeStatus(srv, [`-ca-cert=${pki.caCert}`])).code).toBe(0);
    expect((await nodeStatus(srv, [], { SVC_CACERT: pki.caCert })).code).toBe(0);
  });

  it('without the CA, or with an unrelated one, says so in one line that names -ca-cert', async () => {
    expect(oneErrorLine(await nodeStatus(srv, []))).toMatch(/: the server's certificate is not signed by a CA this client trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): pass the CA certificate that signed it with -ca-cert \(or SVC_CACERT\)$/);
    expect(oneErrorLine(await nodeStatus(srv, [], { SVC_CACERT: pki.otherCaCert }))).toContain(`not signed by the CA in ${pki.otherCaCert}`);
  });

  it('-ca-cert wins over SVC_CACERT', async () => {
    expect((await nodeStatus(srv, [`-ca-cert=${pki.caCert}`], { SVC_CACERT: pki.otherCaCert })).code).toBe(0);
  });

  it('-tls-skip-verify and SVC_SKIP_VERIFY accept the certificate unchecked, and -tls-skip-verify=false wins over the variable', async () => {
    expect((await nodeStatus(srv, ['-tls-skip-verify'])).code).toBe(0);
    expect((await nodeStatus(srv, [], { SVC_SKIP_VERIFY: 'true' })).code).toBe(0);
    oneErrorLine(await nodeStatus(srv, ['-tls-skip-verify=false'], { SVC_SKIP_VERIFY: 'true' }));
  });

  it('-tls-server-name is the name the certificate is checked against, SVC_TLS_SERVER_NAME too; the flag wins', async () => {
    const wrong = oneErrorLine(await nodeStatus(srv, ['-tls-server-name=svc.example.com'], { SVC_CACERT: pki.caCert }));
    expect(wrong).toContain("the server's certificate is not valid for svc.example.com (it names IP Address:127.0.0.1, DNS:localhost)");
    expect(wrong).toContain('-tls-server-name (or SVC_TLS_SERVER_NAME)');
    oneErrorLine(await nodeStatus(srv, [], { SVC_CACERT: pki.caCert, SVC_TLS_SERVER_NAME: 'svc.example.com' }));
    expect((await nodeStatus(srv, ['-tls-server-name=localhost'], { SVC_CACERT: pki.caCert, SVC_TLS_SERVER_NAME: 'svc.example.com' })).code).toBe(0);
    // The address's own name is checked when no other is given.
    expect((await nodeStatus(srv, [`-address=${srv.url.replace('127.0.0.1', 'localhost')}`], { SVC_CACERT: pki.caCert })).code).toBe(0);
  });

  it('a CA file that cannot be read, or holds no certificate, is a usage error naming it and its flag', async () => {
    const missing = await nodeStatus(srv, [`-ca-cert=${dir}/no-such.pem`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read the CA certificate file ${dir}/no-such.pem (-ca-cert)`);
    const notPem = await nodeStatus(srv, [`-ca-cert=${pki.clientKey}`]);
    expect(notPem.code).toBe(1);
    expect(notPem.stderr).toContain(`the CA certificate file ${pki.clientKey} (-ca-cert) holds no PEM certificate`);
  });
});

describe('a server that requires client certificates', () => {
  let srv: TestServer;
  const certEnv = () => ({ SVC_CACERT: pki.caCert, SVC_CLIENT_CERT: pki.clientCert, SVC_CLIENT_KEY: pki.clientKey });
  beforeAll(async () => {
    srv = await startTestServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.caCert, requireClientCert: true } });
  });
  afterAll(async () => srv?.close());

  it('refuses the CLI without one, saying to pass -client-cert and -client-key', async () => {
    expect(oneErrorLine(await nodeStatus(srv, [], { SVC_CACERT: pki.caCert }))).toContain(
      'the server requires a client certificate: pass one signed by the CA it trusts with -client-cert and -client-key (or SVC_CLIENT_CERT and SVC_CLIENT_KEY)',
    );
  });

  it('answers with -client-cert and -client-key, or their variables; the flags win', async () => {
    expect((await nodeStatus(srv, [`-client-cert=${pki.clientCert}`, `-client-key=${pki.clientKey}`], { SVC_CACERT: pki.caCert })).code).toBe(0);
    expect((await nodeStatus(srv, [], certEnv())).code).toBe(0);
    const flagsWin = await nodeStatus(srv, [`-client-cert=${pki.otherClientCert}`, `-client-key=${pki.otherClientKey}`], certEnv());
    expect(oneErrorLine(flagsWin)).toContain(`the client certificate (${pki.otherClientCert})`);
  });

  it('a certificate without its key is a usage error', async () => {
    const r = await nodeStatus(srv, [`-client-cert=${pki.clientCert}`], { SVC_CACERT: pki.caCert });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a client certificate needs its key: pass both -client-cert and -client-key');
  });

  it('alloc exec runs a command over the TLS WebSocket, with the client certificate', async () => {
    const api = new ApiClient({ address: srv.url, token: srv.rootToken, tls: { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey } });
    const allocId = await runningAlloc({ ...srv, client: () => api }, { ID: 'tls-exec', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('main')] }] });
    const env = { HOME: dir, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1', ...certEnv() };
    const r = await runCli(['alloc', 'exec', '-i=false', allocId.slice(0, 8), '/bin/sh', '-c', 'echo over tls; exit 3'], env);
    expect([r.code, r.stdout, r.stderr]).toEqual([3, 'over tls\n', '']);
  });
});
