/**
 * What the exec-like CLI tests (`svc alloc exec`, `svc job action`) share: a sleeping raw_exec task, a
 * job whose tasks all run, and a program run in a real pseudo-terminal (node-pty) whose output the test
 * reads.
 */
import pty from '@lydell/node-pty';
import { until } from './wait.js';
import type { TestServer } from './server.js';

/** Registers `job` (one group, one allocation) and answers its allocation's ID once every task runs. */
export async function runningAlloc(srv: TestServer, job: { ID: string; TaskGroups: Array<{ [k: string]: unknown; Tasks: Array<Record<string, unknown>> }>; [k: string]: unknown }): Promise<string> {
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
  const tasks = job.TaskGroups[0].Tasks.map((t) => String(t.Name));
  type Stub = { ID: string; ClientStatus: string; TaskStates: Record<string, { State: string }> | null };
  const [alloc] = await until(
    async () => (await srv.client().scheduler<Stub[]>('GET', `/v1/job/${encodeURIComponent(job.ID)}/allocations`)).body,
    (l) => l.length === 1 && l[0].ClientStatus === 'running' && tasks.every((t) => l[0].TaskStates?.[t]?.State === 'running'),
    `every task of ${job.ID} to run`,
  );
  return alloc.ID;
}

/** A raw_exec task that sleeps: something running to exec into. */
export function sleeper(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> & { Name: string } {
  return {
    Name: name,
    Driver: 'raw_exec',
    Config: { command: '/bin/sh', args: ['-c', 'exec sleep 300'] },
    KillTimeout: 2_000_000_000,
    Resources: { CPU: 20, MemoryMB: 16 },
    ...extra,
  };
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
