/**
 * Starts the process of an exec session: under a pseudo-terminal (node-pty, loaded only here) when the
 * client asked for a TTY, otherwise with pipes. Either way the process leads a session of its own, so
 * ending the session kills everything it started (session-processes.ts), and nothing outlives a client
 * that went away.
 */
import { spawn } from 'node:child_process';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { constants } from 'node:os';
import type { ExecExit, ExecSession, ExecStream, TerminalSize } from '../../scheduler/wire/exec.js';
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

/**
 * Fires once no output has come for DRAIN_MS. Timers run before pending reads in Node's event loop, so
 * after a long stall the timer would fire with output still waiting to be read: the decision waits for
 * one more pass over pending I/O (setImmediate runs right after it) and is dropped if output came.
 */
class QuietTimer {
  private timer?: NodeJS.Timeout;
  private seen = 0;

  constructor(private readonly onQuiet: () => void) {}

  /** Output came (or the wait starts): restart the wait. */
  arm(): void {
    this.seen++;
    clearTimeout(this.timer);
    const at = this.seen;
    this.timer = setTimeout(() => setImmediate(() => at === this.seen && this.onQuiet()), DRAIN_MS);
  }

  cancel(): void {
    this.seen++;
    clearTimeout(this.timer);
  }
}

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
  private paused = false;
  /** set once the command has exited: ends the session when its output is drained */
  private quiet?: QuietTimer;

  constructor(spec: ExecProcessSpec) {
    let pid = 0;
    super(() => pid);
    this.child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    pid = this.child.pid ?? 0;
    const drained: Promise<void>[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = this.child[stream];
      source.on('data', (buf: Buffer) => {
        this.emit(stream, buf);
        this.armDrainTimer();
      });
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
      // Output still in the pipes is read to the end; only a background process that keeps a pipe open
      // but writes nothing for DRAIN_MS (while the client keeps up) is not waited for.
      const quiet = new Promise<void>((resolve) => (this.quiet = new QuietTimer(resolve)));
      this.armDrainTimer();
      await Promise.race([Promise.all(drained), quiet]);
      this.quiet?.cancel();
      this.end(exit);
    });
  }

  private armDrainTimer(): void {
    if (this.paused) this.quiet?.cancel();
    else this.quiet?.arm();
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
    this.paused = true;
    this.quiet?.cancel();
    this.child.stdout.pause();
    this.child.stderr.pause();
  }

  resume(): void {
    this.paused = false;
    this.armDrainTimer();
    this.child.stdout.resume();
    this.child.stderr.resume();
  }
}

type Pty = import('@lydell/node-pty').IPty;

/** How often a terminal session checks whether its command has exited. */
const EXIT_POLL_MS = 20;

/**
 * A pseudo-terminal loses the tail of the output when its slave side closes before the master has read
 * everything: the kernel stops handing over what is still buffered, and node-pty destroys its end 200 ms
 * after the command exits whatever is unread. So the session holds a slave descriptor of its own, reads
 * on after the command has exited (never paused then: what is left is the kernel's buffers), and only
 * once the output has been quiet for DRAIN_MS closes the slave and the master: the end of the session.
 * A background process that keeps the terminal open without writing does not hold the session up.
 */
class TerminalSession extends SessionBase implements ExecSession {
  private readonly exitPoll: NodeJS.Timeout;
  private slave: number | undefined;
  private gone = false;
  private paused = false;
  private readonly quiet: QuietTimer;

  constructor(
    private readonly pty: Pty,
    ptsName: string,
  ) {
    super(() => pty.pid);
    this.slave = openSync(ptsName, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
    const socket = (pty as unknown as { _socket: { destroy(): void } })._socket;
    const destroy = socket.destroy.bind(socket);
    this.quiet = new QuietTimer(() => {
      this.releaseSlave();
      destroy();
    });
    socket.destroy = () => undefined;
    this.exitPoll = setInterval(() => {
      if (processExists(pty.pid)) return;
      clearInterval(this.exitPoll);
      this.gone = true;
      this.resume();
    }, EXIT_POLL_MS);
    // encoding: null gives Buffers, typed as strings by node-pty.
    pty.onData((data) => {
      this.emit('stdout', data as unknown as Buffer);
      this.armQuietTimer();
    });
    pty.onExit(({ exitCode, signal }) => {
      clearInterval(this.exitPoll);
      this.quiet.cancel();
      this.releaseSlave();
      this.emitClosed('stdout');
      this.end(exitOf(exitCode, signal));
    });
  }

  private armQuietTimer(): void {
    if (this.gone && !this.paused) this.quiet.arm();
  }

  private releaseSlave(): void {
    if (this.slave === undefined) return;
    closeSync(this.slave);
    this.slave = undefined;
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

  /**
   * Once the command has exited, what is left to read is the kernel's few buffers, and a paused reader
   * would hold some of it when node-pty reports the exit: so the end is always read in full.
   */
  pause(): void {
    if (this.gone) return;
    this.paused = true;
    this.pty.pause();
  }

  resume(): void {
    this.paused = false;
    this.armQuietTimer();
    this.pty.resume();
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startExecSession(spec: ExecProcessSpec, opts: { tty: boolean; size?: TerminalSize }): Promise<ExecSession> {
  if (!opts.tty) return new PipeSession(spec);
  const { spawn: spawnPty } = await import('@lydell/node-pty');
  const size = opts.size ?? DEFAULT_SIZE;
  const env = { TERM: 'xterm-256color', ...spec.env };
  const pty = spawnPty(spec.file, spec.args, { name: env.TERM, cols: size.cols, rows: size.rows, cwd: spec.cwd, env, encoding: null });
  // node-pty keeps the slave's path in `_pty` (the `ptsName` getter is not in its typings).
  const ptsName = (pty as unknown as { _pty: string })._pty;
  return new TerminalSession(pty, ptsName);
}
