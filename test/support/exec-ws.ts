/**
 * A WebSocket client for the exec and action endpoints, speaking the frames as a third-party client
 * would: it records every frame the server sends and how the connection ended.
 */
import WebSocket from 'ws';

export interface ExecResult {
  /** output decoded from the stdout/stderr data frames */
  stdout: Buffer;
  stderr: Buffer;
  /** every server frame, parsed, in order */
  frames: Record<string, unknown>[];
  /** the raw text of the exit frame, if one came */
  exitFrame?: string;
  exitCode?: number;
  closeCode: number;
  closeReason: string;
  /** set when the server refused the upgrade with an HTTP answer */
  httpStatus?: number;
  httpBody?: string;
}

export interface ExecOptions {
  token?: string;
  /** send the token in the first frame (ws_handshake=true) instead of the header */
  handshake?: boolean;
  /** frames to send right after the connection opens (after the handshake frame) */
  send?: unknown[];
  /** called once the socket is open, for tests that talk to the session as it runs */
  onOpen?: (ws: WebSocket, session: LiveSession) => void | Promise<void>;
}

export interface LiveSession {
  /** resolves once the decoded stdout contains `text` */
  waitForStdout(text: string): Promise<void>;
  stdout(): string;
}

export function stdinFrame(data: Buffer | string): unknown {
  return { stdin: { data: Buffer.from(data).toString('base64') } };
}

/** Opens `path?query` on the server and runs it to the end. */
export function execWs(baseUrl: string, pathAndQuery: string, opts: ExecOptions = {}): Promise<ExecResult> {
  const url = baseUrl.replace(/^http/, 'ws') + pathAndQuery + (opts.handshake ? `${pathAndQuery.includes('?') ? '&' : '?'}ws_handshake=true` : '');
  const headers: Record<string, string> = {};
  if (opts.token && !opts.handshake) headers['X-Svc-Token'] = opts.token;
  const ws = new WebSocket(url, { headers });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const frames: Record<string, unknown>[] = [];
  let exitFrame: string | undefined;
  const watchers: { text: string; resolve: () => void }[] = [];
  const stdoutText = () => Buffer.concat(out).toString('utf8');
  const live: LiveSession = {
    stdout: stdoutText,
    waitForStdout: (text) =>
      new Promise((resolve) => {
        if (stdoutText().includes(text)) resolve();
        else watchers.push({ text, resolve });
      }),
  };
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), frames, closeCode: 0, closeReason: '', httpStatus: res.statusCode, httpBody: body }));
    });
    ws.on('open', async () => {
      if (opts.handshake) ws.send(JSON.stringify({ version: 1, auth_token: opts.token ?? '' }));
      for (const f of opts.send ?? []) ws.send(typeof f === 'string' ? f : JSON.stringify(f));
      await opts.onOpen?.(ws, live);
    });
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      const frame = JSON.parse(text) as Record<string, { data?: string }>;
      frames.push(frame);
      if (frame.stdout?.data) out.push(Buffer.from(frame.stdout.data, 'base64'));
      if (frame.stderr?.data) err.push(Buffer.from(frame.stderr.data, 'base64'));
      if ('exited' in frame) exitFrame = text;
      for (const w of watchers.splice(0)) {
        if (stdoutText().includes(w.text)) w.resolve();
        else watchers.push(w);
      }
    });
    ws.on('close', (code, reason) => {
      const exit = exitFrame ? (JSON.parse(exitFrame) as { result: { exit_code?: number } }).result.exit_code ?? 0 : undefined;
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), frames, exitFrame, exitCode: exit, closeCode: code, closeReason: reason.toString() });
    });
    ws.on('error', (e) => {
      if (!String(e.message).includes('Unexpected server response')) reject(e);
    });
  });
}

/** The exec path of an allocation with the query built from a command and options. */
export function execPath(allocId: string, command: string[], q: Record<string, string | boolean> = {}): string {
  const query = new URLSearchParams({ command: JSON.stringify(command), ...Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) });
  return `/v1/client/allocation/${allocId}/exec?${query}`;
}
