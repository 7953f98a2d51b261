/**
 * A command run inside a running task (`alloc exec`, job actions), as the node offers it to the server's
 * WebSocket endpoints: output comes as events, input, resizes and the end of stdin go in, and `exited`
 * settles once every process of the session is gone.
 */
export interface ExecRequest {
  task: string;
  /** the command and its arguments, exactly as the client sent them */
  command: string[];
  /** run under a pseudo-terminal (stdout and stderr then arrive merged, as stdout) */
  tty: boolean;
}

/**
 * A command the node has checked (the task runs, the driver can exec, the program is there): `start`
 * runs it, with the terminal size to start at when tty. Checking first lets the server refuse while the
 * request is still HTTP.
 */
export interface PreparedExec {
  start(size?: TerminalSize): Promise<ExecSession>;
}

export interface TerminalSize {
  rows: number;
  cols: number;
}

export interface ExecExit {
  /** as a shell reports it: 128 + the signal number when a signal ended the command */
  exitCode: number;
  /** the signal number, 0 when the command exited by itself */
  signal: number;
}

export type ExecStream = 'stdout' | 'stderr';

export interface ExecSession {
  /** output as it is produced; never called after `exited` settles */
  onOutput(listener: (stream: ExecStream, data: Buffer) => void): void;
  /** the command closed one of its output streams (pipes only; a terminal closes both at exit) */
  onOutputClosed(listener: (stream: ExecStream) => void): void;
  write(data: Buffer): void;
  closeStdin(): void;
  resize(size: TerminalSize): void;
  /** stop reading output until resume(): the client is slower than the command */
  pause(): void;
  resume(): void;
  /** ends the session: every process it started is killed (the client went away, or the task stops) */
  kill(): void;
  readonly exited: Promise<ExecExit>;
}

/** A session that passed every check; `start` runs the command. */
export interface ExecLaunch {
  tty: boolean;
  start(size?: TerminalSize): Promise<ExecSession>;
}
