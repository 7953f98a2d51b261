/**
 * One exec session over WebSocket (`svc alloc exec`, `svc job action`), Nomad's protocol: the handshake
 * frame with the token, stdin as base64 frames and its end as `stdin.close`, the terminal size at the
 * start and on every resize, a heartbeat every 10 s; stdout and stderr frames written as bytes, and the
 * exit frame's code as the answer.
 *
 * Everything the session sets up (raw mode, listeners, the heartbeat, signal handlers) is undone by one
 * `finish`, whichever way the session ends: the exit frame, a close frame, a connection error, the
 * escape sequence, or SIGINT/SIGTERM/SIGHUP sent to the CLI.
 */
import type { RequestOptions } from 'node:https';
import { constants as os } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { ClientTls } from '../../api/http/tls.js';
import { HEARTBEAT_FRAME, STDIN_CLOSE_FRAME, exitCodeOf, handshakeFrame, stdinFrame, ttySizeFrame, type ExecOutputFrame } from '../../api/exec.js';
import { EscapeFilter } from './escape.js';
import { enterRawMode, isTerminalInput, onResize, sizeOf, sizedTerminal } from './terminal.js';

export interface SessionOptions {
  url: URL;
  token?: string;
  /** for wss:// URLs: the API client's TLS options, and its settings (named in failure messages) */
  tls?: { options: RequestOptions; settings?: ClientTls };
  /** the command runs under a pseudo-terminal: the local terminal goes raw and its size is sent */
  tty: boolean;
  /** what the command reads; undefined (-i=false) sends the end of stdin at once */
  stdin?: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  /** the escape byte of a TTY session (src/cli/exec/escape.ts); undefined disables escapes */
  escape?: number;
  /** called once the connection is open, before any output is written (the caller's spinner stops here) */
  onOpen?: () => void;
}

const HEARTBEAT_MS = 10_000;
/** Stop reading stdin while this much is queued for the socket, resume below LOW: a slow link does not make the CLI buffer all of stdin. */
const SEND_HIGH_WATER = 1 << 20;
const SEND_LOW_WATER = 1 << 18;
/** How long a close handshake may take before the connection is cut: the process must not wait on a silent server. */
const CLOSE_GRACE_MS = 1000;
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs the session; answers the remote command's exit code, or rejects with one line saying why it failed. */
export async function runSession(o: SessionOptions): Promise<number> {
  // ws is loaded here, not at the top: only exec-like commands need it.
  const { default: WebSocket } = await import('ws');
  // Loaded before connecting: a failure is reported as it happens, before the close that follows it.
  const tlsFailure = o.url.protocol === 'wss:' ? (await import('../../api/http/tls.js')).tlsFailure : undefined;

  return new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(o.url, { headers: o.token ? { 'X-Svc-Token': o.token } : {}, perMessageDeflate: false, ...o.tls?.options });
    const cleanups: Array<() => void> = [];
    let settled = false;
    let exitCode: number | undefined;

    const finish = (outcome: { code: number } | { error: Error }) => {
      if (settled) return;
      settled = true;
      // Undone in reverse order of setup: stdin stops being read before the terminal leaves raw mode.
      for (const undo of cleanups.reverse()) undo();
      closeSocket(ws);
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.code);
    };

    const send = (frame: string, sent?: () => void) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(frame, sent);
    };

    // A signal to the CLI ends the session (closing the socket makes the server kill the command) and
    // exits as a shell reports a death by that signal.
    for (const name of ENDING_SIGNALS) {
      const handler = () => finish({ code: 128 + os.signals[name] });
      process.on(name, handler);
      cleanups.push(() => process.off(name, handler));
    }

    // Output is written as bytes; when a stream cannot keep up, stop reading the socket until it drains,
    // so the server (and the command behind it) is slowed down instead of the CLI buffering everything.
    const blocked = new Set<Writable>();
    const write = (stream: Writable, data: Buffer) => {
      if (stream.write(data) || blocked.has(stream)) return;
      blocked.add(stream);
      ws.pause();
      stream.once('drain', () => {
        blocked.delete(stream);
        if (blocked.size === 0 && !settled) ws.resume();
      });
    };
    for (const stream of [o.stdout, o.stderr]) {
      // The reader went away (`svc alloc exec … | head -1`): end quietly, as a process killed by SIGPIPE.
      const onError = (err: NodeJS.ErrnoException) =>
        finish(err.code === 'EPIPE' ? { code: 128 + os.signals.SIGPIPE } : { error: new Error(`cannot write the output: ${err.message}`) });
      stream.on('error', onError);
      cleanups.push(() => stream.off('error', onError));
    }

    ws.on('unexpected-response', (req, res) => {
      // A refusal before the upgrade (token, ACL, unknown allocation) is a plain HTTP answer: report its body.
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        const body = Buffer.concat(chunks).toString('utf8').trim();
        finish({ error: new Error(`Unexpected response code: ${res.statusCode} (${body || res.statusMessage})`) });
      });
      res.on('error', (err) => finish({ error: err }));
    });

    ws.on('error', (err: NodeJS.ErrnoException) => {
      const why = tlsFailure?.(err, o.url, o.tls?.settings) ?? (err.code === 'ECONNREFUSED' ? 'connection refused; is `svc server` running?' : err.message);
      finish({ error: new Error(`cannot reach the server at ${o.url.host}: ${why}`) });
    });

    ws.on('open', () => {
      o.onOpen?.();
      // The handshake must be the first frame: the server reads the token from it.
      send(handshakeFrame(o.token));
      if (o.tty) setUpTerminal();
      const heartbeat = setInterval(() => send(HEARTBEAT_FRAME), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(heartbeat));
      pumpStdin();
    });

    ws.on('message', (raw: Buffer) => {
      if (settled) return;
      let frame: ExecOutputFrame;
      try {
        frame = JSON.parse(raw.toString('utf8')) as ExecOutputFrame;
      } catch {
        finish({ error: new Error('the server sent a frame that is not JSON') });
        return;
      }
      if (frame.stdout?.data) write(o.stdout, Buffer.from(frame.stdout.data, 'base64'));
      if (frame.stderr?.data) write(o.stderr, Buffer.from(frame.stderr.data, 'base64'));
      if (frame.exited) {
        exitCode = exitCodeOf(frame);
        finish({ code: exitCode });
      }
      // Anything else (heartbeats, the streams' close marks) needs nothing from us.
    });

    ws.on('close', (_code: number, reason: Buffer) => {
      if (exitCode !== undefined) return;
      // 1008 (the caller's mistake) and 1011 (the server's) carry the message as the close reason.
      const text = reason.toString('utf8').trim();
      finish({ error: new Error(text || 'websocket closed before receiving exit code') });
    });

    function setUpTerminal() {
      if (o.stdin && isTerminalInput(o.stdin)) cleanups.push(enterRawMode(o.stdin));
      const terminal = sizedTerminal(o.stdout, o.stderr);
      if (!terminal) return;
      const size = sizeOf(terminal);
      if (size) send(ttySizeFrame(size.rows, size.cols));
      cleanups.push(onResize(terminal, (s) => send(ttySizeFrame(s.rows, s.cols))));
    }

    function pumpStdin() {
      const input = o.stdin;
      if (!input) {
        send(STDIN_CLOSE_FRAME);
        return;
      }
      const escapes = o.tty && o.escape !== undefined && isTerminalInput(input) ? new EscapeFilter(o.escape) : undefined;
      let waitingForSocket = false;
      const sent = () => {
        if (waitingForSocket && ws.bufferedAmount < SEND_LOW_WATER && !settled) {
          waitingForSocket = false;
          input.resume();
        }
      };
      const onData = (chunk: Buffer | string) => {
        let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        let close = false;
        if (escapes) ({ data, close } = escapes.push(data));
        if (data.length > 0) send(stdinFrame(data), sent);
        if (close) {
          escaped();
          return;
        }
        if (ws.bufferedAmount > SEND_HIGH_WATER) {
          waitingForSocket = true;
          input.pause();
        }
      };
      const onEnd = () => send(STDIN_CLOSE_FRAME);
      const onError = (err: Error) => finish({ error: new Error(`cannot read the input: ${err.message}`) });
      input.on('data', onData);
      input.on('end', onEnd);
      input.on('error', onError);
      cleanups.push(() => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('error', onError);
        input.pause();
        // A pipe that is still open (`sleep 100 | svc alloc exec …`) would keep the process alive.
        if (!(input as { isTTY?: boolean }).isTTY) input.destroy();
      });
    }

    /** ESCAPE `.`: the terminal is restored first, so the notice starts at the beginning of a line. */
    function escaped() {
      finish({ code: 1 });
      o.stderr.write('\nConnection closed\n');
    }
  });
}

/** Closes politely when open (the server then ends the command), and cuts the connection if the close handshake stalls. */
function closeSocket(ws: import('ws').WebSocket): void {
  if (ws.readyState === ws.CONNECTING) {
    ws.terminate();
    return;
  }
  if (ws.readyState !== ws.OPEN) return;
  ws.close(1000);
  // Unreferenced: it fires only while something else keeps the process alive (ws's own 30 s close timer).
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}
