/**
 * Starts the process of an exec session: under a pseudo-terminal (node-pty, loaded only here) when the
 * client asked for a TTY, otherwise with pipes. Either way the process leads a session of its own, so
 * ending the session kills everything it started (session-processes.ts), and nothing outlives a client
 * that went away.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecExit, ExecSession, ExecStream, TerminalSize } from './types.js';
import { killSessionProcesses } from './session-processes.js';

/** What to run, as the task's driver words it: the command inside the task's isolation, if it has one. */
export interface ExecProcessSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** How long output is still read after the command exits, for a background process holding the pipe. */
const DRAIN_MS = 250;
const DEFAULT_SIZE: TerminalSize = { rows: 24, cols: 80 };
/** A terminal's end-of-file: what typing Ctrl-D sends. A pseudo-terminal cannot be half-closed. */
const EOT = Buffer.from([4]);

function exitOf(code: number | null, signal: NodeJS.Signals | number | null | undefined): ExecExit {
  const number = typeof signal === 'string' ? (constants.signals[signal] ?? 0) : (signal ?? 0);
  if (number > 0) return { exitCode: 128 + number, signal: number };
  return { exitCode: code ?? 0, signal: 0 };
}

/** Listener lists, and the end of the session once the command has exited and its output is drained. */
class SessionBase {
  protected outputListeners: ((stream: ExecStream, data: Buffer) => void)[] = [];
  protected closedListeners: ((stream: ExecStream) => void)[] = [];
  protected ended = false;
  protected finish!: (exit: ExecExit) => void;
  readonly exited: Promise<ExecExit>;

  constructor(protected readonly sessionId: () => number) {
    this.exited = new Promise((resolve) => (this.finish = resolve));
  }

  onOutput(listener: (stream: ExecStream, data: Buffer) => void): void {
    this.outputListeners.push(listener);
  }

  onOutputClosed(listener: (stream: ExecStream) => void): void {
    this.closedListeners.push(listener);
  }

  protected emit(stream: ExecStream, data: Buffer): void {
    if (this.ended) return;
    for (const l of this.outputListeners) l(stream, data);
  }

  protected emitClosed(stream: ExecStream): void {
    if (this.ended) return;
    for (const l of this.closedListeners) l(stream);
  }

  /** What the command started in the background goes with it: the session is over. */
  protected end(exit: ExecExit): void {
    if (this.ended) return;
    this.ended = true;
    killSessionProcesses(this.sessionId());
    this.finish(exit);
  }

  kill(): void {
    killSessionProcesses(this.sessionId());
  }
}

class PipeSession extends SessionBase implements ExecSession {
  private readonly child;

  constructor(spec: ExecProcessSpec) {
    let pid = 0;
    super(() => pid);
    this.child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    pid = this.child.pid ?? 0;
    const drained: Promise<void>[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = this.child[stream];
      source.on('data', (buf: Buffer) => this.emit(stream, buf));
      drained.push(new Promise((resolve) => source.once('close', () => (this.emitClosed(stream), resolve()))));
    }
    // A client that stops reading must not crash the server when the command exits first.
    this.child.stdin.on('error', () => undefined);
    const failed = new Promise<ExecExit>((resolve) =>
      this.child.once('error', (err) => {
        this.emit('stderr', Buffer.from(`${err.message}\n`));
        resolve({ exitCode: 127, signal: 0 });
      }),
    );
    const exited = new Promise<ExecExit>((resolve) => this.child.once('exit', (code, signal) => resolve(exitOf(code, signal))));
    void Promise.race([exited, failed]).then(async (exit) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(drained), new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]);
      clearTimeout(timer);
      this.end(exit);
    });
  }

  write(data: Buffer): void {
    if (!this.child.stdin.destroyed && this.child.stdin.writable) this.child.stdin.write(data);
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  resize(): void {
    // Pipes have no size.
  }

  pause(): void {
    this.child.stdout.pause();
    this.child.stderr.pause();
  }

  resume(): void {
    this.child.stdout.resume();
    this.child.stderr.resume();
  }
}

type Pty = import('@lydell/node-pty').IPty;

class TerminalSession extends SessionBase implements ExecSession {
  constructor(private readonly pty: Pty) {
    super(() => pty.pid);
    // encoding: null gives Buffers, typed as strings by node-pty.
    pty.onData((data) => this.emit('stdout', data as unknown as Buffer));
    pty.onExit(({ exitCode, signal }) => {
      this.emitClosed('stdout');
      this.end(exitOf(exitCode, signal));
    });
  }

  write(data: Buffer): void {
    if (!this.ended) this.pty.write(data as unknown as string);
  }

  closeStdin(): void {
    this.write(EOT);
  }

  resize(size: TerminalSize): void {
    if (!this.ended) this.pty.resize(size.cols, size.rows);
  }

  pause(): void {
    this.pty.pause();
  }

  resume(): void {
    this.pty.resume();
  }
}

export async function startExecSession(spec: ExecProcessSpec, opts: { tty: boolean; size?: TerminalSize }): Promise<ExecSession> {
  if (!opts.tty) return new PipeSession(spec);
  const { spawn: spawnPty } = await import('@lydell/node-pty');
  const size = opts.size ?? DEFAULT_SIZE;
  const env = { TERM: 'xterm-256color', ...spec.env };
  const pty = spawnPty(spec.file, spec.args, { name: env.TERM, cols: size.cols, rows: size.rows, cwd: spec.cwd, env, encoding: null });
  return new TerminalSession(pty);
}
