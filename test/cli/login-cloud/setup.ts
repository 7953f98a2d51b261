/**
 * What the `svc login -method=cloud` end-to-end tests share: the real server and the cloud simulator, a
 * cloud mount configured to call the simulator and trust its signing certificates, and a way to run the
 * built bin/svc with its own token and nonce files and no token of its own.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { startCloudSim, type CloudSim } from '../../../src/cloudsim/index.js';
import { makeTempDir, startTestServer, type CliResult, type TestServer } from '../../support/server.js';
import { mountCloud } from '../../support/cloud-mount.js';

export interface LoginEnv {
  srv: TestServer;
  sim: CloudSim;
  /** Runs `svc login -method=cloud ARGS`; token and nonce files are named after `files`. */
  login(files: string, args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Runs `svc ARGS` with the token stored in the token file named after `files`. */
  withStoredToken(files: string, args: string[]): Promise<CliResult>;
  tokenFile(files: string): string;
  nonceFile(files: string): string;
  /** The nonce file's content ({} when there is none). */
  nonces(files: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** `allowSha1`: the server runs as with -cloud-allow-sha1. */
export async function startLoginEnv(opts: { allowSha1?: boolean } = {}): Promise<LoginEnv> {
  const sim = await startCloudSim({ account: '123456789012' });
  // The server must not see this process's CLOUD_* variables: every credential it uses is configured below.
  const srv = await startTestServer({ client: false, cloud: { env: {}, allowSha1: opts.allowSha1 ?? false } });
  const dir = await makeTempDir('svc-login-cloud-');
  const tokenFile = (files: string) => path.join(dir, `${files}.token`);
  const nonceFile = (files: string) => path.join(dir, `${files}.nonces`);
  const fileEnv = (files: string) => ({ SVC_TOKEN_FILE: tokenFile(files), SVC_CLOUD_NONCE_FILE: nonceFile(files) });
  return {
    srv,
    sim,
    login: (files, args, env = {}) =>
      srv.cli(['login', '-method=cloud', ...args], { token: '', env: { ...fileEnv(files), CLOUD_METADATA_ENDPOINT: sim.metadataUrl, ...env } }),
    withStoredToken: (files, args) => srv.cli(args, { token: '', env: fileEnv(files) }),
    tokenFile,
    nonceFile,
    async nonces(files) {
      const text = await readFile(nonceFile(files), 'utf8').catch(() => '{}');
      return JSON.parse(text) as Record<string, string>;
    },
    async close() {
      await srv.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Enables the cloud method at auth/<mount> and points it at the simulator, trusting its certificates. */
export async function configureMount(env: LoginEnv, mount: string, clientConfig: Record<string, unknown> = {}): Promise<void> {
  await mountCloud(env.srv, mount, env.sim, clientConfig);
}

/** The stdout of a successful `-format=json` run, parsed. */
export function jsonOf(res: CliResult): { request_id: string; auth: Record<string, unknown> & { metadata: Record<string, string> | null }; [k: string]: unknown } {
  return JSON.parse(res.stdout) as ReturnType<typeof jsonOf>;
}
