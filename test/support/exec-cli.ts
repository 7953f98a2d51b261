/**
 * What the exec-like CLI tests (`svc alloc exec`, `svc job action`) share: a sleeping raw_exec task, the
 * processes running on this machine (to check that a session's command is gone), and a program run in a
 * real pseudo-terminal (node-pty) whose output the test reads.
 */
import { readFileSync, readdirSync } from 'node:fs';
import pty from '@lydell/node-pty';
import { until } from './wait.js';

/** A raw_exec task that sleeps: something running to exec into. */
export function sleeper(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: name,
    Driver: 'raw_exec',
    Config: { command: '/bin/sh', args: ['-c', 'exec sleep 300'] },
    KillTimeout: 2_000_000_000,
    Resources: { CPU: 20, MemoryMB: 16 },
    ...extra,
  };
}

/**
 * The live (not zombie) processes whose arguments start with `prefix` and also include every string of
 * `including`, compared whole: `liveProcesses(['sleep', '987654'])`.
 */
export function liveProcesses(prefix: string[], including: string[] = []): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') continue;
      if (prefix.every((p, i) => args[i] === p) && including.every((s) => args.includes(s))) pids.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return pids;
}

export interface PtyRun {
  pid: number;
  write(text: string): void;
  resize(cols: number, rows: number): void;
  /** everything the terminal showed so far */
  output(): string;
  /** resolves once the output (from offset `from`) contains `text` */
  waitFor(text: string, from?: number): Promise<void>;
  waitForMatch(re: RegExp, from?: number): Promise<RegExpMatchArray>;
  /** the program's exit code */
  exited: Promise<number>;
  /** SIGKILL unless it already exited (test cleanup) */
  kill(): void;
}

export function startPty(file: string, args: string[], opts: { cols: number; rows: number; cwd?: string; env: Record<string, string | undefined> }): PtyRun {
  const p = pty.spawn(file, args, { name: 'xterm', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env: opts.env as Record<string, string> });
  let out = '';
  let done = false;
  p.onData((d) => (out += d));
  const exited = new Promise<number>((resolve) =>
    p.onExit(({ exitCode }) => {
      done = true;
      resolve(exitCode);
    }),
  );
  const waitForMatch = async (re: RegExp, from = 0): Promise<RegExpMatchArray> => {
    try {
      return (await until(async () => out.slice(from).match(re) ?? undefined, (m) => m !== undefined, `${re} in the terminal`)) as RegExpMatchArray;
    } catch (err) {
      throw new Error(`${(err as Error).message}; the terminal showed: ${JSON.stringify(out.slice(-1000))}`);
    }
  };
  return {
    pid: p.pid,
    write: (text) => p.write(text),
    resize: (cols, rows) => p.resize(cols, rows),
    output: () => out,
    waitFor: async (text, from = 0) => void (await waitForMatch(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), from)),
    waitForMatch,
    exited,
    kill: () => {
      if (!done) p.kill('SIGKILL');
    },
  };
}
