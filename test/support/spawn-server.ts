/**
 * Runs `bin/svc server ...` as a real child process (for signals, kill -9 and the printed banner) and
 * resolves once the banner names the address.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SVC_BIN } from './server.js';

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  rootToken?: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Child processes still running, so a test file can stop them all in afterAll. */
export const running = new Set<ChildProcessWithoutNullStreams>();

export function spawnServer(args: string[], env: Record<string, string>): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [SVC_BIN, 'server', ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } });
  running.add(child);
  let out = '';
  let err = '';
  // 'close', not 'exit': only then has everything the child wrote to its pipes been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const address = /Address: (https?:\/\/\S+)/.exec(out);
      if (address) {
        resolve({ child, url: address[1], rootToken: /Root Token: (\S+)/.exec(out)?.[1], stdout: () => out, stderr: () => err, exited });
      }
    });
    void exited.then(({ code }) => reject(new Error(`svc server exited with ${code} before listening:\n${out}\n${err}`)));
  });
}

/** Stops a spawned server with SIGTERM (a clean shutdown) and waits until it has exited; no-op once it has. */
export async function stopServer(server: SpawnedServer | undefined): Promise<void> {
  if (!server || !running.has(server.child)) return;
  server.child.kill('SIGTERM');
  await server.exited;
}
