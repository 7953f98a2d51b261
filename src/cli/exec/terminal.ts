/**
 * The local terminal during a TTY session: raw mode (every key, Ctrl-C included, goes to the remote
 * command, which has a terminal of its own) and its size.
 *
 * Raw mode must never outlive the session, or the user's shell is left without echo and line editing.
 * The restore function is idempotent and is also hooked to the process's exit and to uncaught exceptions
 * (`uncaughtExceptionMonitor` observes without changing how Node handles the error), so it runs on
 * every path that can still run code: normal end, error, signals (src/cli/exec/session.ts ends the
 * session on them, which restores). Node itself also puts the terminal back as it exits; a SIGKILL
 * leaves the terminal raw, as it does for ssh.
 */
import type { ReadStream, WriteStream } from 'node:tty';
import type { Readable, Writable } from 'node:stream';

export interface TerminalSize {
  rows: number;
  cols: number;
}

export function isTerminalInput(stream: Readable & { isTTY?: boolean }): stream is ReadStream {
  return stream.isTTY === true && typeof (stream as Partial<ReadStream>).setRawMode === 'function';
}

/** Puts the terminal in raw mode; the answer restores it (and may be called any number of times). */
export function enterRawMode(stdin: ReadStream): () => void {
  if (stdin.isRaw) return () => {};
  stdin.setRawMode(true);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    process.off('uncaughtExceptionMonitor', restore);
    try {
      stdin.setRawMode(false);
    } catch {
      // the terminal is gone (hung up): nothing left to restore
    }
  };
  process.on('exit', restore);
  process.on('uncaughtExceptionMonitor', restore);
  return restore;
}

/** The terminal whose size the remote command should get: stdout's, else stderr's (stdout redirected). */
export function sizedTerminal(...streams: Array<Writable & { isTTY?: boolean }>): WriteStream | undefined {
  return streams.find((s): s is WriteStream => s.isTTY === true && typeof (s as Partial<WriteStream>).getWindowSize === 'function');
}

export function sizeOf(terminal: WriteStream): TerminalSize | undefined {
  const { rows, columns } = terminal;
  return rows > 0 && columns > 0 ? { rows, cols: columns } : undefined;
}

/**
 * Calls `listener` with the new size whenever the terminal is resized. Node's TTY stream turns SIGWINCH
 * into its 'resize' event (and refreshes rows/columns first), so no signal handler of our own is needed.
 * The answer stops listening.
 */
export function onResize(terminal: WriteStream, listener: (size: TerminalSize) => void): () => void {
  const handler = () => {
    const size = sizeOf(terminal);
    if (size) listener(size);
  };
  terminal.on('resize', handler);
  return () => terminal.off('resize', handler);
}
