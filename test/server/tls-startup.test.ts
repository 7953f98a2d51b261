/**
 * `svc server` starting with TLS, as users run it (bin/svc): the tls block and the -tls-* flags, the
 * start-up errors that name the file at fault, the https:// banner, and the warning for a plain-HTTP
 * listener on an address other hosts can reach.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { loadConfigFile } from '../../src/server/config-file.js';
import { makeTempDir, runCli } from '../support/server.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { makeCa, writeTestPki, type TestPkiFiles } from '../support/tls.js';
import { until } from '../support/wait.js';

const PLAIN_WARNING = 'without TLS: tokens and secrets cross the network in clear text';

let dir: string;
let pki: TestPkiFiles;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await makeTempDir('svc-tls-start-');
  pki = await writeTestPki(dir);
  env = { HOME: dir, NO_COLOR: '1' };
});

afterEach(async () => {
  for (const child of running) child.kill('SIGTERM');
  await until(async () => running.size, (n) => n === 0, 'the servers to stop');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

/** The server's log (stderr) once it logged that it listens: anything logged at start came before. */
async function startLog(srv: SpawnedServer): Promise<string> {
  return until(async () => srv.stderr(), (log) => log.includes('listening on'), 'the server to log that it listens');
}

describe('start-up errors', () => {
  it('a tls block with a certificate but no key is a usage error naming the config file and key_file', async () => {
    const config = await configFile('cert-only.hcl', `tls {\n  cert_file = "${pki.serverCert}"\n}\n`);
    const r = await runCli(['server', '-dev', '-port=0', '-client=false', `-config=${config}`], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`TLS needs a certificate and its key: set the key with -tls-key (or key_file in the tls block of ${config})`);
  });

  it('the tls block takes its five settings, typed, and nothing else', async () => {
    const yaml = await configFile('tls.yaml', `tls:\n  cert_file: /c.pem\n  key_file: /k.pem\n  client_ca_file: /ca.pem\n  require_client_cert: true\n  node_client_cert: false\n`);
    expect((await loadConfigFile(yaml)).tls).toEqual({ certFile: '/c.pem', keyFile: '/k.pem', clientCaFile: '/ca.pem', requireClientCert: true, nodeClientCert: false });
    const badType = await configFile('bad-type.hcl', 'tls {\n  require_client_cert = "yes"\n}\n');
    await expect(loadConfigFile(badType)).rejects.toThrow(`config file ${badType}: "tls.require_client_cert" must be true or false`);
    const unknown = await configFile('unknown.json', JSON.stringify({ tls: { ca_file: '/ca.pem' } }));
    await expect(loadConfigFile(unknown)).rejects.toThrow(`config file ${unknown}: unknown setting "tls.ca_file"`);
  });

  it('a key file that cannot be read stops the start, naming the file', async () => {
    const missing = path.join(dir, 'no-such-key.pem');
    const config = await configFile('unreadable.json', JSON.stringify({ tls: { cert_file: pki.serverCert, key_file: missing } }));
    const r = await runCli(['server', '-dev', '-port=0', '-client=false', `-config=${config}`], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error starting server: cannot read the TLS key file ${missing}: ENOENT`);
  });

  it('a certificate file without a certificate, and a key of another certificate, are named', async () => {
    const notCert = await runCli(['server', '-dev', '-port=0', '-client=false', `-tls-cert=${pki.serverKey}`, `-tls-key=${pki.serverKey}`], env);
    expect([notCert.code, notCert.stderr]).toEqual([1, `Error starting server: the TLS certificate file ${pki.serverKey} holds no PEM certificate\n`]);
    const otherKey = await runCli(['server', '-dev', '-port=0', '-client=false', `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.clientKey}`], env);
    expect([otherKey.code, otherKey.stderr]).toEqual([1, `Error starting server: the TLS key file ${pki.clientKey} is not the key of the certificate in ${pki.serverCert}\n`]);
  });

  it('client certificate settings without what they need are usage errors', async () => {
    const noCa = await runCli(['server', '-dev', '-port=0', `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.serverKey}`, '-tls-require-client-cert'], env);
    expect(noCa.code).toBe(1);
    expect(noCa.stderr).toContain('-tls-require-client-cert needs the CA client certificates are verified against: set -tls-client-ca');
    const noTls = await runCli(['server', '-dev', '-port=0', `-tls-client-ca=${pki.caCert}`], env);
    expect(noTls.code).toBe(1);
    expect(noTls.stderr).toContain('client certificates need TLS: set -tls-cert');
  });

  it("with node_client_cert, a server certificate its own node cannot present as a client certificate stops the start", async () => {
    const ca = makeCa('server-only CA');
    const serverOnly = ca.issue('svc server', { names: ['127.0.0.1'], usage: ['server'] });
    const [caFile, certFile, keyFile] = ['so-ca.pem', 'so-server.pem', 'so-server-key.pem'].map((f) => path.join(dir, f));
    await Promise.all([writeFile(caFile, ca.cert), writeFile(certFile, serverOnly.cert), writeFile(keyFile, serverOnly.key)]);
    const args = ['server', '-dev', '-port=0', `-tls-cert=${certFile}`, `-tls-key=${keyFile}`, '-tls-node-client-cert'];
    const usage = await runCli([...args, `-tls-client-ca=${caFile}`], env);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain(`the server certificate ${certFile} as its client certificate, and it does not allow client authentication`);
    const otherCa = await runCli([...args, `-tls-client-ca=${pki.caCert}`], env);
    expect(otherCa.code).toBe(1);
    expect(otherCa.stderr).toContain(`is not signed by a CA in ${pki.caCert}: issue it from that CA for both server and client use, or start the server with -client=false`);
  });
});

describe('a server that starts', () => {
  it('serves HTTPS with the tls block of an HCL file, and says https:// in its banner', async () => {
    const config = await configFile('tls.hcl', `tls {\n  cert_file = "${pki.serverCert}"\n  key_file = "${pki.serverKey}"\n  client_ca_file = "${pki.caCert}"\n  node_client_cert = true\n}\n`);
    const srv = await spawnServer(['-dev', '-port=0', '-client=false', `-config=${config}`], env);
    expect(srv.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = new ApiClient({ address: srv.url, token: srv.rootToken, tls: { caCert: pki.caCert } });
    expect(await client.secrets('GET', 'sys/health')).toMatchObject({ initialized: true });
    // node_client_cert came from the file: the node API wants a certificate.
    await expect(client.scheduler('PUT', '/v1/node/register', { body: {} })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('-tls-cert and -tls-key win over the file', async () => {
    const config = await configFile('other-tls.hcl', `tls {\n  cert_file = "${path.join(dir, 'nowhere.pem')}"\n  key_file = "${path.join(dir, 'nowhere-key.pem')}"\n}\n`);
    const srv = await spawnServer(['-dev', '-port=0', '-client=false', `-config=${config}`, `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.serverKey}`], env);
    expect(srv.url).toMatch(/^https:/);
  });

  it('warns when it listens on a non-loopback address without TLS', async () => {
    const srv = await spawnServer(['-dev', '-bind=0.0.0.0', '-port=0', '-client=false'], env);
    const log = await startLog(srv);
    expect(log).toMatch(/\[WARN\] listening on 0\.0\.0\.0 without TLS: tokens and secrets cross the network in clear text; serve HTTPS with -tls-cert and -tls-key/);
  });

  it('does not warn with TLS, nor on loopback', async () => {
    const tls = await spawnServer(['-dev', '-bind=0.0.0.0', '-port=0', '-client=false', `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.serverKey}`], env);
    const loopback = await spawnServer(['-dev', '-port=0', '-client=false'], env);
    expect(await startLog(tls)).not.toContain(PLAIN_WARNING);
    expect(await startLog(loopback)).not.toContain(PLAIN_WARNING);
  });
});
