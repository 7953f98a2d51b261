/**
 * An exec session from the browser (alloc exec and job actions), in Nomad's frames as the CLI speaks
 * them: the URL says `ws_handshake=true` and the first frame carries the token, so the token is never
 * in an address (a browser cannot set headers on a WebSocket); then the terminal's size, input as
 * base64 stdin frames, a heartbeat every ten seconds so proxies keep a quiet session open, and output
 * and the exit code read from the server's frames.
 */
import { url, type Query } from '../api.js';
import { currentToken } from '../token.js';
import { base64, fromBase64 } from '../wire.js';

/** A frame from the server (src/scheduler/wire/exec-stream.ts); a heartbeat is `{}`. */
interface ExecOutputFrame {
  stdout?: { data?: string; close?: boolean };
  stderr?: { data?: string; close?: boolean };
  exited?: boolean;
  result?: { exit_code?: number; signal?: number };
}

const HEARTBEAT_MS = 10_000;

export interface SessionEvents {
  /** the connection is open and the token sent: the server checks it, then starts the command */
  opened(): void;
  output(data: Uint8Array): void;
  /** the command ended: its exit code, as a shell reports it (128 + the signal when one ended it) */
  exited(code: number): void;
  /** the session ended without an exit code: the server refused it or the connection was lost */
  failed(reason: string): void;
}

export interface Session {
  input(text: string): void;
  resize(rows: number, cols: number): void;
  close(): void;
}

const encoder = new TextEncoder();

/** The exit frame's code: omitted is 0 (Go's omitempty); a signal alone is 128 + its number. */
export function exitCode(frame: ExecOutputFrame): number {
  const result = frame.result ?? {};
  if (typeof result.exit_code === 'number') return result.exit_code;
  if (typeof result.signal === 'number' && result.signal > 0) return 128 + result.signal;
  return 0;
}

/** The socket address of an API path on the page's own server (ws: or wss: as the page's scheme). */
function socketUrl(path: string, query: Query): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${url(path, { ...query, ws_handshake: 'true' })}`;
}

/** Opens the session at `path` (an exec or action endpoint) with the terminal's size to start at. */
export function openSession(path: string, query: Query, size: { rows: number; cols: number }, on: SessionEvents): Session {
  const ws = new WebSocket(socketUrl(path, query));
  let ended = false;
  const send = (frame: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  };
  const heartbeat = setInterval(() => send({}), HEARTBEAT_MS);
  const end = () => {
    ended = true;
    clearInterval(heartbeat);
  };
  ws.onopen = () => {
    send({ version: 1, auth_token: currentToken() ?? '' });
    send({ tty_size: { height: size.rows, width: size.cols } });
    on.opened();
  };
  ws.onmessage = (e: MessageEvent) => {
    if (ended || typeof e.data !== 'string') return;
    let frame: ExecOutputFrame;
    try {
      frame = JSON.parse(e.data) as ExecOutputFrame;
    } catch {
      return;
    }
    if (frame.stdout?.data) on.output(fromBase64(frame.stdout.data));
    if (frame.stderr?.data) on.output(fromBase64(frame.stderr.data));
    if (frame.exited) {
      end();
      on.exited(exitCode(frame));
    }
  };
  ws.onclose = (e: CloseEvent) => {
    if (ended) return;
    end();
    on.failed(e.reason || (e.code === 1006 ? 'the connection to the server was lost' : `the server closed the session (code ${e.code})`));
  };
  return {
    input(text) {
      if (!ended) send({ stdin: { data: base64(encoder.encode(text)) } });
    },
    resize(rows, cols) {
      if (!ended && rows > 0 && cols > 0) send({ tty_size: { height: rows, width: cols } });
    },
    close() {
      end();
      ws.close();
    },
  };
}
