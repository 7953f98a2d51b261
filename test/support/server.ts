/**
 * Starts the real server on 127.0.0.1, port 0, with a temporary data dir, and gives tests an API client
 * and a way to run the built `bin/svc` against it. Each test file stops the servers it started.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../src/api/http/client.js';
import { buildServer, type ServerOptions, type SvcServer } from '../../src/server/app.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SVC_BIN = path.join(REPO, 'bin/svc');

export interface TestServer {
  server: SvcServer;
  url: string;
  rootToken: string;
  dataDir: string;
  /** a client with the root token, or with the given token ('' for none) */
  client(token?: string): ApiClient;
  /** runs bin/svc with SVC_ADDR pointing here and HOME in a temp dir */
  cli(args: string[], opts?: CliOptions): Promise<CliResult>;
  close(): Promise<void>;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** use this token instead of the root token ('' for none) */
  token?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function makeTempDir(prefix = 'svc-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export function runCli(args: string[], env: Record<string, string | undefined>, input?: string): Promise<CliResult> {
  return runProgram(process.execPath, [SVC_BIN, ...args], { PATH: process.env.PATH, ...env }, { input });
}

/** Runs a program to its end with exactly `env`, `input` (or nothing) on its stdin; collects what it wrote. */
export function runProgram(command: string, args: string[], env: Record<string, string | undefined>, opts: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    // A program that exits without reading its input closes the pipe under the write: that is no failure of the run.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (await makeTempDir());
  const home = await makeTempDir('svc-home-');
  const logs: string[] = [];
  // The server's own node stops its tasks when the test stops the server, unless a test says otherwise.
  const client = opts.client === false ? false : { stopTasksOnShutdown: true, ...opts.client };
  const server = await buildServer({ dev: false, dataDir, port: 0, bind: '127.0.0.1', logWrite: (l) => logs.push(l), ...opts, client });
  const { port } = await server.listen();
  const url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const rootToken = server.rootToken!;
  return {
    server,
    url,
    rootToken,
    dataDir,
    client: (token = rootToken) => new ApiClient({ address: url, token: token || undefined }),
    cli: (args, o = {}) =>
      runCli(args, { HOME: home, SVC_ADDR: url, SVC_TOKEN: o.token ?? rootToken, NO_COLOR: '1', ...o.env }, o.input),
    async close() {
      await server.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    },
  };
}
