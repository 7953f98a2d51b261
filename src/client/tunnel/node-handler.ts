/**
 * What a node answers through its tunnel (src/scheduler/wire/tunnel-protocol.ts): an HTTP server that
 * never listens, fed the data connections the node dialed to its server, answering with the same
 * NodeControl the server uses for a node in its own process (the NodeAgent). Only the server at the
 * other end of the tunnel can ask.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { text } from 'node:stream/consumers';
import { WebSocketServer } from 'ws';
import type { NodeControl } from '../../scheduler/wire/node-control.js';
import { Inbox, runExecStream } from '../../scheduler/wire/exec-stream.js';
import { classify, refuseSocket } from '../../framework/http/respond.js';
import { UserError } from '../../shared/errors.js';
import type { Logger } from '../../shared/log.js';
import type { FileReadOptions, LogReadOptions } from '../../scheduler/wire/alloc-fs.js';
import type { StreamEvent } from '../../scheduler/wire/stream-frames.js';
import type { ExecRequest, TerminalSize } from '../../scheduler/wire/exec.js';
import type { PauseRequest } from '../../scheduler/wire/schedule-state.js';
import { CALLS, encodeEvent, type CallMethod } from '../../scheduler/wire/tunnel-protocol.js';

/** Idle ticks go to the server at most this often: it only needs them to send its own heartbeats. */
const IDLE_EVERY_MS = 1000;
/** How long an exec session waits for the server to start it (the client's upgrade may have failed). */
const START_WAIT_MS = 30_000;
const HEARTBEAT_MS = 10_000;
/** Input frames larger than this close the session, as the server's own exec endpoint does. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

type Args = unknown[];

const calls: Record<CallMethod, (c: NodeControl, allocId: string, args: Args) => Promise<unknown>> = {
  signal: (c, id, [signal, task]) => c.signal(id, signal as string, (task as string | null) ?? undefined),
  restart: (c, id, [opts]) => c.restart(id, opts as { task?: string; allTasks?: boolean }),
  pauseState: (c, id, [task]) => c.pauseState(id, task as string),
  setPauseState: (c, id, [task, state]) => c.setPauseState(id, task as string, state as PauseRequest),
  checks: (c, id) => c.checks(id),
  allocStats: (c, id) => c.allocStats(id),
  hostStats: (c) => c.hostStats(),
  ls: (c, id, [path]) => c.files(id).ls(path as string),
  stat: (c, id, [path]) => c.files(id).stat(path as string),
};

type ReadArgs = Omit<FileReadOptions, 'finished' | 'signal'> & { path: string };
type LogArgs = Omit<LogReadOptions, 'finished' | 'signal'>;

function answerError(res: ServerResponse, err: unknown, log: Logger, what: string): void {
  const { status, message, internal } = classify(err);
  if (internal) log.error(`tunnel ${what}: ${(err as Error)?.stack ?? message}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

function refuseUpgrade(socket: Duplex, err: unknown): void {
  const { status, message } = classify(err);
  refuseSocket(socket, status, message);
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UserError(`the server sent malformed ${what} (not JSON)`);
  }
}

/** The request's path split: the kind, the method (calls only) and the allocation, and its JSON `args`. */
function route(url: string): { parts: string[]; args: string } {
  const parsed = new URL(url, 'http://node');
  return { parts: parsed.pathname.split('/').slice(1).map(decodeURIComponent), args: parsed.searchParams.get('args') ?? 'null' };
}

/** Writes the reader's events as lines, waiting for the server to take them (a slow client slows the reader). */
async function sendEvents(reader: AsyncGenerator<StreamEvent>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  let lastIdle = 0;
  for await (const e of reader) {
    if (signal.aborted) return;
    if (e.kind === 'idle') {
      if (Date.now() - lastIdle < IDLE_EVERY_MS) continue;
      lastIdle = Date.now();
    }
    if (!res.write(encodeEvent(e))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        res.on('drain', done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}

export interface NodeHandler {
  /** Serves one data connection: the server's request comes on it. */
  serve(socket: Duplex): void;
  /** Ends every session and stream in progress. */
  close(): void;
}

export function createNodeHandler(control: NodeControl, log: Logger): NodeHandler {
  const stopping = new AbortController();
  const sockets = new Set<Duplex>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });

  /** A file or a log, its body held open by the server until nothing will write any more. */
  async function stream(req: IncomingMessage, res: ServerResponse, open: (finished: () => boolean, signal: AbortSignal) => Promise<AsyncGenerator<StreamEvent>>) {
    let ended = false;
    req.on('end', () => (ended = true));
    req.resume();
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const reader = await open(() => ended, gone.signal);
    try {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      await sendEvents(reader, res, gone.signal);
      res.end();
    } finally {
      await reader.return(undefined);
    }
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { parts, args } = route(req.url ?? '/');
    const [kind, second, third] = parts;
    if (kind === 'call' && req.method === 'POST' && (CALLS as readonly string[]).includes(second) && third) {
      const result = await calls[second as CallMethod](control, third, parseJson<Args>(await text(req), 'arguments'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result ?? null));
      return;
    }
    if (kind === 'read' && req.method === 'POST' && second) {
      const { path, ...opts } = parseJson<ReadArgs>(args, 'read options');
      return stream(req, res, (finished, signal) => control.files(second).read(path, { ...opts, finished, signal }));
    }
    if (kind === 'logs' && req.method === 'POST' && second) {
      const opts = parseJson<LogArgs>(args, 'log options');
      return stream(req, res, (finished, signal) => control.files(second).logs({ ...opts, finished, signal }));
    }
    throw new UserError(`the node answers no ${req.method} ${req.url}`);
  }

  const server = http.createServer({ requestTimeout: 0 }, (req, res) => {
    answer(req, res).catch((err: unknown) => answerError(res, err, log, `${req.method} ${req.url}`));
  });

  /** An exec session: checked before the upgrade (a refusal is an HTTP answer), started by the server's first frame. */
  async function exec(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const { parts, args } = route(req.url ?? '/');
    if (parts[0] !== 'exec' || !parts[1]) throw new UserError(`the node answers no WebSocket at ${req.url}`);
    const prepared = await control.exec(parts[1], parseJson<ExecRequest>(args, 'exec request'));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const inbox = new Inbox(ws);
      void (async () => {
        const first = await inbox.next(START_WAIT_MS);
        if (!first) {
          ws.terminate();
          return;
        }
        const size = parseJson<{ start: TerminalSize | null }>(first.data.toString(), 'exec start').start ?? undefined;
        // The server already waited for the client's first size: the session starts at once.
        await runExecStream(ws, inbox, { tty: false, start: () => prepared.start(size) }, { shutdown: stopping.signal, heartbeatMs: HEARTBEAT_MS });
      })().catch((err: Error) => {
        log.error(`tunnel exec: ${err.stack ?? err.message}`);
        ws.terminate();
      });
    });
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    exec(req, socket, head).catch((err: unknown) => refuseUpgrade(socket, err));
  });

  return {
    serve(socket) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      server.emit('connection', socket);
    },
    close() {
      stopping.abort();
      for (const ws of wss.clients) ws.terminate();
      for (const socket of sockets) socket.destroy();
      wss.close();
      server.close();
    },
  };
}
