/**
 * An exec session spoken over a WebSocket, in Nomad's frames (JSON text frames with lower-case keys):
 *
 *   in:  {"stdin":{"data":"<base64>"}}  {"stdin":{"close":true}}  {"tty_size":{"height":R,"width":C}}  {}
 *   out: {"stdout":{"data":"<base64>"}} {"stderr":{...}} {"stdout":{"close":true}}
 *        {"exited":true,"result":{"exit_code":N}} (Go's omitempty: code 0 is {"exited":true,"result":{}})  {}
 *
 * Both sides send `{}` as a heartbeat; the server never drops a quiet session. Output is paused while
 * the client has too much unread (backpressure), and the session's processes are killed as soon as the
 * client goes away.
 *
 * The server's exec endpoints run it for a node in its own process, and a node behind a tunnel runs it
 * on the WebSocket the server opens to it (src/client/tunnel/node-handler.ts).
 */
import type { WebSocket } from 'ws';
import type { ExecExit, ExecLaunch, ExecSession, TerminalSize } from './exec.js';
import { CLOSE_GOING_AWAY, CLOSE_INTERNAL, CLOSE_NORMAL, CLOSE_POLICY } from '../../shared/ws-close.js';

/** Output frames carry at most this many raw bytes. */
const MAX_FRAME_BYTES = 64 * 1024;
/** Unsent output above which the command's output is paused, and below which it resumes. */
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
/** How long a TTY session waits for the client's first size before starting at 80x24. */
const FIRST_SIZE_WAIT_MS = 200;
/** Close reasons are limited to 123 bytes by the protocol. */
const MAX_REASON_BYTES = 123;

export interface ClientFrame {
  stdin?: { data?: string; close?: boolean };
  tty_size?: { height?: number; width?: number };
}

/** One frame to the client. Every key is optional: a heartbeat is `{}`, and unknown keys are ignored. */
export interface ExecOutputFrame {
  stdout?: { data?: string; close?: boolean };
  stderr?: { data?: string; close?: boolean };
  exited?: boolean;
  /** Go's omitempty: a zero exit code arrives as `{}` */
  result?: { exit_code?: number; signal?: number };
}

/** A close frame's reason, cut to what the protocol allows without splitting a character. */
export function closeReason(message: string): string {
  let reason = message;
  while (Buffer.byteLength(reason) > MAX_REASON_BYTES) reason = reason.slice(0, -1);
  return reason;
}

/** Reads one client frame; a frame that is not one of ours is a caller error, named. */
export function parseClientFrame(data: Buffer | string): ClientFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(data.toString());
  } catch {
    throw new Error('frame is not JSON: send {"stdin":{"data":"<base64>"}}, {"stdin":{"close":true}} or {"tty_size":{"height":R,"width":C}}');
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) throw new Error('frame must be a JSON object');
  const f = frame as ClientFrame;
  if (f.stdin !== undefined && (typeof f.stdin !== 'object' || f.stdin === null)) throw new Error('frame field "stdin" must be an object');
  if (f.stdin?.data !== undefined && typeof f.stdin.data !== 'string') throw new Error('frame field "stdin.data" must be a base64 string');
  if (f.tty_size !== undefined && !validSize(f.tty_size)) throw new Error('frame field "tty_size" must hold whole numbers "height" and "width" from 1 to 65535');
  return f;
}

function validSize(s: unknown): s is { height: number; width: number } {
  const ok = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 65535;
  return typeof s === 'object' && s !== null && ok((s as { height?: unknown }).height) && ok((s as { width?: unknown }).width);
}

type Message = { data: Buffer; isBinary: boolean };

/**
 * The client's frames from the moment of the upgrade: ws emits messages whether or not anyone listens,
 * so frames sent right behind the handshake are kept until the session is ready for them.
 */
export class Inbox {
  private readonly queued: Message[] = [];
  private listener?: (m: Message) => void;
  private waiter?: (m: Message | undefined) => void;

  constructor(ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const m = { data, isBinary };
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(m);
      } else if (this.listener) this.listener(m);
      else this.queued.push(m);
    });
    ws.once('close', () => {
      const w = this.waiter;
      this.waiter = undefined;
      w?.(undefined);
    });
  }

  /** The next frame, or undefined when none came within `ms` or the socket closed. */
  next(ms: number): Promise<Message | undefined> {
    const m = this.queued.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, ms);
      this.waiter = (got) => {
        clearTimeout(timer);
        resolve(got);
      };
    });
  }

  /** Every frame from now on, those already queued first. */
  listen(listener: (m: Message) => void): void {
    this.listener = listener;
    for (const m of this.queued.splice(0)) listener(m);
  }
}

export function exitFrame(exit: ExecExit): string {
  const result: Record<string, number> = {};
  if (exit.exitCode !== 0) result.exit_code = exit.exitCode;
  if (exit.signal !== 0) result.signal = exit.signal;
  return JSON.stringify({ exited: true, result });
}

/**
 * Runs the launch over the socket until the command exits, the client leaves or the server stops.
 * Frames the client sent before the session started (a first resize, early input) are applied in order.
 */
export async function runExecStream(ws: WebSocket, inbox: Inbox, launch: ExecLaunch, opts: { shutdown: AbortSignal; heartbeatMs: number }): Promise<void> {
  const { shutdown } = opts;
  if (ws.readyState !== ws.OPEN) return;
  const early: ClientFrame[] = [];
  let session: ExecSession | undefined;
  let clientGone = false;
  let failed = false;
  let gotSize: (size: TerminalSize) => void = () => undefined;
  const firstSize = new Promise<TerminalSize | undefined>((resolve) => {
    gotSize = resolve;
    if (!launch.tty) resolve(undefined);
    else setTimeout(() => resolve(undefined), FIRST_SIZE_WAIT_MS).unref();
  });

  const apply = (s: ExecSession, f: ClientFrame) => {
    if (f.stdin?.data) s.write(Buffer.from(f.stdin.data, 'base64'));
    if (f.stdin?.close) s.closeStdin();
    if (f.tty_size) s.resize({ rows: f.tty_size.height!, cols: f.tty_size.width! });
  };
  const fail = (code: number, message: string) => {
    if (failed) return;
    failed = true;
    session?.kill();
    if (ws.readyState === ws.OPEN) ws.close(code, closeReason(message));
  };

  inbox.listen(({ data, isBinary }) => {
    if (isBinary) return fail(CLOSE_POLICY, 'frames must be JSON text frames');
    let frame: ClientFrame;
    try {
      frame = parseClientFrame(data);
    } catch (err) {
      return fail(CLOSE_POLICY, (err as Error).message);
    }
    if (frame.tty_size) gotSize({ rows: frame.tty_size.height!, cols: frame.tty_size.width! });
    if (session) apply(session, frame);
    else early.push(frame);
  });
  const gone = new Promise<void>((resolve) => {
    ws.once('close', () => {
      clientGone = true;
      session?.kill();
      resolve();
    });
  });
  // An error on the socket is followed by its close; what matters is handled there.
  ws.on('error', () => undefined);
  const onShutdown = () => fail(CLOSE_GOING_AWAY, 'server shutting down');
  shutdown.addEventListener('abort', onShutdown, { once: true });
  const heartbeat = setInterval(() => ws.readyState === ws.OPEN && ws.send('{}'), opts.heartbeatMs);

  try {
    const size = await firstSize;
    if (clientGone || failed) return;
    try {
      session = await launch.start(size);
    } catch (err) {
      const e = err as Error & { statusCode?: number };
      return fail(e.statusCode && e.statusCode < 500 ? CLOSE_POLICY : CLOSE_INTERNAL, e.message || 'exec failed');
    }
    const s = session;
    if (clientGone || failed) return s.kill();

    let unsent = 0;
    let paused = false;
    const sent = (bytes: number) => () => {
      unsent -= bytes;
      if (paused && unsent < LOW_WATER) {
        paused = false;
        s.resume();
      }
    };
    s.onOutput((stream, data) => {
      for (let at = 0; at < data.length; at += MAX_FRAME_BYTES) {
        const frame = `{"${stream}":{"data":"${data.subarray(at, at + MAX_FRAME_BYTES).toString('base64')}"}}`;
        unsent += frame.length;
        if (ws.readyState === ws.OPEN) ws.send(frame, sent(frame.length));
      }
      if (!paused && unsent > HIGH_WATER) {
        paused = true;
        s.pause();
      }
    });
    s.onOutputClosed((stream) => ws.readyState === ws.OPEN && ws.send(`{"${stream}":{"close":true}}`));
    for (const f of early.splice(0)) apply(s, f);

    const exit = await Promise.race([s.exited, gone.then(() => undefined)]);
    if (!exit || failed || ws.readyState !== ws.OPEN) return;
    ws.send(exitFrame(exit));
    ws.close(CLOSE_NORMAL);
  } finally {
    clearInterval(heartbeat);
    shutdown.removeEventListener('abort', onShutdown);
  }
}
