/** Runs `bin/svc server ...` as a real child process, resolved once the banner names the address. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnBin, type SpawnedBin } from './spawn-bin.js';

export interface SpawnedServer extends SpawnedBin {
  url: string;
  rootToken?: string;
}

/** Child processes still running, so a test file can stop them all in afterAll. */
export const running = new Set<ChildProcessWithoutNullStreams>();

export async function spawnServer(args: string[], env: Record<string, string>): Promise<SpawnedServer> {
  const spawned = await spawnBin(['server', ...args], env, /Address: https?:\/\/\S+\s/, running);
  const out = spawned.stdout();
  return { ...spawned, url: /Address: (https?:\/\/\S+)/.exec(out)![1], rootToken: /Root Token: (\S+)/.exec(out)?.[1] };
}

/** Stops a spawned server with SIGTERM (a clean shutdown) and waits until it has exited; no-op once it has. */
export async function stopServer(server: SpawnedServer | undefined): Promise<void> {
  if (!server || !running.has(server.child)) return;
  server.child.kill('SIGTERM');
  await server.exited;
}
