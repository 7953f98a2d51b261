/**
 * Runs `bin/svc <command> ...` as a real child process (for signals, kill -9 and the printed banner) and
 * resolves once its stdout matches `ready`, or rejects with what it wrote when it exits first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SVC_BIN } from './server.js';

export interface SpawnedBin {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `bin/svc args...`; `running` keeps the child until it has exited, for a test file's cleanup. */
export function spawnBin(args: string[], env: Record<string, string>, ready: RegExp, running: Set<ChildProcessWithoutNullStreams>): Promise<SpawnedBin> {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } });
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
      if (ready.test(out)) resolve({ child, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code }) => reject(new Error(`svc ${args[0]} exited with ${code} before it was ready:\n${out}\n${err}`)));
  });
}
