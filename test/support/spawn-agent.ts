/**
 * Runs `bin/svc agent ...` as a real child process (for signals and the printed banner) and resolves once
 * the banner is printed, or rejects with what it wrote when it exits first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SVC_BIN } from './server.js';

export interface SpawnedAgent {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Agents still running, so a test file can stop them all in afterAll. */
export const runningAgents = new Set<ChildProcessWithoutNullStreams>();

export function spawnAgent(args: string[], env: Record<string, string>): Promise<SpawnedAgent> {
  const child = spawn(process.execPath, [SVC_BIN, 'agent', ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } });
  runningAgents.add(child);
  let out = '';
  let err = '';
  // 'close', not 'exit': only then has everything the child wrote to its pipes been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      runningAgents.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Node: .*\n/.test(out)) resolve({ child, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code }) => reject(new Error(`svc agent exited with ${code} before its banner:\n${out}\n${err}`)));
  });
}

/** Stops an agent with SIGTERM and answers how it exited. */
export async function stopAgent(agent: SpawnedAgent): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  agent.child.kill('SIGTERM');
  return agent.exited;
}
