/**
 * Vault's and Nomad's environment variables as fallbacks of the common flags: flag, then SVC_X, then
 * NOMAD_X for a scheduler command or VAULT_X for the others, then the other tool's, then the default.
 * The precedence through the real declarations, and bin/svc against real servers (one over TLS for the
 * CA variables). Also the -address check that names a missing scheme.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { findCommand, flagsOf } from '../../src/main.js';
import { parseArgs } from '../../src/cli/argv.js';
import { UsageError } from '../../src/shared/errors.js';
import { schedulerOutputMode } from '../../src/cli/output/scheduler-output-mode.js';
import { makeTempDir, runCli, startTestServer, type TestServer } from '../support/server.js';
import { writeTestPki, type TestPkiFiles } from '../support/tls.js';

const { commands } = await fullRegistry();

/** The flags `svc <words>` runs with, given only `env`. */
async function flags(words: string, env: Record<string, string>, argv: string[] = []) {
  const spec = findCommand(words.split(' '), commands).spec!;
  return (await parseArgs(argv, flagsOf(spec), { env, family: spec.family, stopAtFirstArg: spec.stopAtFirstArg })).flags;
}

const BOTH = { NOMAD_ADDR: 'http://nomad:1', VAULT_ADDR: 'http://vault:1' };

describe('precedence', () => {
  it('a scheduler command reads NOMAD_ before VAULT_, a secrets command VAULT_ before NOMAD_', async () => {
    expect((await flags('job status', BOTH)).address).toBe('http://nomad:1');
    expect((await flags('token lookup', BOTH)).address).toBe('http://vault:1');
    expect((await flags('job status', { VAULT_ADDR: 'http://vault:1' })).address).toBe('http://vault:1');
    expect((await flags('token lookup', { NOMAD_ADDR: 'http://nomad:1' })).address).toBe('http://nomad:1');
  });

  it('SVC_ wins over both, the flag over everything, and the default comes last', async () => {
    expect((await flags('job status', { ...BOTH, SVC_ADDR: 'http://svc:1' })).address).toBe('http://svc:1');
    expect((await flags('job status', { ...BOTH, SVC_ADDR: 'http://svc:1' }, ['-address=http://flag:1'])).address).toBe('http://flag:1');
    expect((await flags('job status', { NOMAD_ADDR: '' })).address).toBe('http://127.0.0.1:4646');
  });

  it('covers the token, namespace, region, TLS and format settings', async () => {
    const env = {
      NOMAD_TOKEN: 'n-token',
      VAULT_NAMESPACE: 'v-ns',
      NOMAD_REGION: 'east',
      VAULT_CACERT: '/v/ca.pem',
      NOMAD_CAPATH: '/n/cas',
      VAULT_CLIENT_CERT: '/v/c.pem',
      NOMAD_CLIENT_KEY: '/n/k.pem',
      VAULT_TLS_SERVER_NAME: 'vault.internal',
      NOMAD_SKIP_VERIFY: 'true',
      VAULT_FORMAT: 'json',
    };
    expect(await flags('read', env, ['secret/x'])).toMatchObject({
      token: 'n-token',
      namespace: 'v-ns',
      region: 'east',
      'ca-cert': '/v/ca.pem',
      'ca-path': '/n/cas',
      'client-cert': '/v/c.pem',
      'client-key': '/n/k.pem',
      'tls-server-name': 'vault.internal',
      'tls-skip-verify': true,
      format: 'json',
    });
  });

  it('checks an upstream value like a flag value, naming the variable it came from', async () => {
    const err = await flags('job status', { NOMAD_SKIP_VERIFY: 'maybe' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('invalid boolean value "maybe" for -tls-skip-verify (from NOMAD_SKIP_VERIFY)');
  });

  it('a -format from VAULT_FORMAT is a default that -t overrides, as one from SVC_FORMAT', async () => {
    const env = { VAULT_FORMAT: 'json' };
    const given = await flags('job status', env, ['-t', '{{.}}']);
    expect(given.format).toBe('json');
    expect(schedulerOutputMode(given, env)).toEqual({ kind: 'template', text: '{{.}}' });
    expect(() => schedulerOutputMode({ ...given, format: 'yaml' }, env)).toThrow(UsageError);
  });

  it("-help lists the variables in the order the command's side reads them", async () => {
    const help = async (words: string) => {
      let out = '';
      const { run } = await import('../../src/main.js');
      const { PassThrough } = await import('node:stream');
      const stdout = new PassThrough();
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      await run([...words.split(' '), '-help'], { stdin: new PassThrough(), stdout, stderr: new PassThrough() }, {});
      return out.replace(/\s+/g, ' ');
    };
    expect(await help('job status')).toContain('This can also be specified via the SVC_ADDR environment variable; when it is unset, NOMAD_ADDR, then VAULT_ADDR.');
    expect(await help('token lookup')).toContain('This can also be specified via the SVC_ADDR environment variable; when it is unset, VAULT_ADDR, then NOMAD_ADDR.');
  });
});

describe('-address', () => {
  it('without a scheme is a usage error that says so and how to write it, from the flag or a variable', async () => {
    const typed = await runCli(['token', 'lookup', '-address=127.0.0.1:4646'], { HOME: '/nonexistent' });
    expect(typed.code).toBe(1);
    expect(typed.stderr.split('\n')[0]).toBe('invalid value "127.0.0.1:4646" for -address: missing scheme; try http://127.0.0.1:4646');
    const fromEnv = await runCli(['job', 'status'], { HOME: '/nonexistent', NOMAD_ADDR: 'localhost:4646' });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr.split('\n')[0]).toBe('invalid value "localhost:4646" for -address (from NOMAD_ADDR): missing scheme; try http://localhost:4646');
    expect(fromEnv.stderr).not.toContain('Invalid URL');
  });

  it('with another scheme names the ones that work', async () => {
    const res = await runCli(['status', '-address=ftp://127.0.0.1:4646'], { HOME: '/nonexistent' });
    expect(res.stderr.split('\n')[0]).toBe('invalid value "ftp://127.0.0.1:4646" for -address: unsupported scheme "ftp"; use http:// or https://');
  });
});

describe('bin/svc with only the upstream variables set', () => {
  let srv: TestServer;
  let home: string;
  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    home = await makeTempDir('svc-upstream-home-');
  });
  afterAll(async () => {
    await srv?.close();
    await rm(home, { recursive: true, force: true });
  });

  const unreachable = 'http://127.0.0.1:1';

  it('a secrets command uses VAULT_ADDR and VAULT_TOKEN', async () => {
    const res = await runCli(['token', 'lookup', '-field=id'], { HOME: home, VAULT_ADDR: srv.url, VAULT_TOKEN: srv.rootToken, NOMAD_ADDR: unreachable });
    expect(res.stderr).toBe('');
    expect(res.stdout.trim()).toBe(srv.rootToken);
  });

  it('a scheduler command uses NOMAD_ADDR and NOMAD_TOKEN before the VAULT_ ones', async () => {
    const res = await runCli(['job', 'status'], { HOME: home, NOMAD_ADDR: srv.url, NOMAD_TOKEN: srv.rootToken, VAULT_ADDR: unreachable, VAULT_TOKEN: 'wrong' });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const wrong = await runCli(['job', 'status'], { HOME: home, NOMAD_ADDR: unreachable, VAULT_ADDR: srv.url, NOMAD_TOKEN: srv.rootToken });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('127.0.0.1:1');
  });

  it('the token variable wins over the token file, as VAULT_TOKEN over the token helper', async () => {
    const fileHome = await makeTempDir('svc-upstream-file-');
    try {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path.join(fileHome, '.svc-token'), 'svc.not-a-token');
      const res = await runCli(['print', 'token'], { HOME: fileHome, VAULT_TOKEN: 'svc.from-vault-token' });
      expect(res.stdout.trim()).toBe('svc.from-vault-token');
      expect((await runCli(['print', 'token'], { HOME: fileHome })).stdout.trim()).toBe('svc.not-a-token');
    } finally {
      await rm(fileHome, { recursive: true, force: true });
    }
  });

  it('svc login warns about the variable that will take precedence', async () => {
    const res = await runCli(['login', '-no-print', srv.rootToken], { HOME: home, VAULT_ADDR: srv.url, VAULT_TOKEN: srv.rootToken });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('WARNING! The VAULT_TOKEN environment variable is set!');
  });
});

describe('the CA variables over TLS', () => {
  let dir: string;
  let pki: TestPkiFiles;
  let srv: TestServer;
  beforeAll(async () => {
    dir = await makeTempDir('svc-upstream-tls-');
    pki = await writeTestPki(dir);
    srv = await startTestServer({ client: false, tls: { certFile: pki.serverCert, keyFile: pki.serverKey } });
  });
  afterAll(async () => {
    await srv?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const nodeStatus = (env: Record<string, string>) => runCli(['node', 'status'], { HOME: dir, NOMAD_ADDR: srv.url, NOMAD_TOKEN: srv.rootToken, NO_COLOR: '1', ...env });

  it('NOMAD_CACERT and VAULT_CACERT are trusted', async () => {
    expect((await nodeStatus({ NOMAD_CACERT: pki.caCert })).code).toBe(0);
    expect((await nodeStatus({ VAULT_CACERT: pki.caCert })).code).toBe(0);
    expect((await nodeStatus({})).code).toBe(1);
  });

  it('NOMAD_CAPATH trusts the certificates of a directory, and skips files that hold none', async () => {
    const cas = path.join(dir, 'cas');
    await mkdir(cas);
    await copyFile(pki.otherCaCert, path.join(cas, 'a-other.pem'));
    await copyFile(pki.caCert, path.join(cas, 'b-ca.pem'));
    await copyFile(pki.serverKey, path.join(cas, 'c-key.pem'));
    expect((await nodeStatus({ NOMAD_CAPATH: cas })).code).toBe(0);
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    const res = await nodeStatus({ NOMAD_CAPATH: empty });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the CA directory ${empty} (-ca-path) holds no PEM certificate`);
  });

  it('NOMAD_SKIP_VERIFY accepts the certificate unchecked, and NOMAD_TLS_SERVER_NAME names the host to check', async () => {
    expect((await nodeStatus({ NOMAD_SKIP_VERIFY: 'true' })).code).toBe(0);
    const byName = await nodeStatus({ NOMAD_CACERT: pki.caCert, NOMAD_TLS_SERVER_NAME: 'other.example' });
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain('not valid for other.example');
  });
});
