/**
 * A node reached through its tunnel, as the endpoints use any node (NodeControl): each call is one HTTP
 * request to the node's handler (src/client/tunnel/node-handler.ts) on a data connection of its own, and
 * the node's errors come back with their status and message, so the answers are those of a node in the
 * server's own process.
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { text } from 'node:stream/consumers';
import { WebSocket } from 'ws';
import { POLL_MS, type AllocFs } from '../wire/alloc-fs.js';
import type { StreamEvent } from '../wire/stream-frames.js';
import { decodeEvent, DIAL_TIMEOUT_MS, NODE_ITSELF, NodeAnswer, tunnelPaths, type CallMethod } from '../wire/tunnel-protocol.js';
import { InternalError } from '../../shared/errors.js';

/** How long the node has to answer a request on a data connection (its body may then take its time). */
const ANSWER_WITHIN_MS = 10_000;
import type { NodeControl } from '../wire/node-control.js';
import { TunnelExecSession } from './tunnel-exec-session.js';

type Dial = () => Promise<Duplex>;

/** The node's error answer as the error the endpoint throws. */
async function answered(res: IncomingMessage): Promise<NodeAnswer> {
  return new NodeAnswer(res.statusCode ?? 500, (await text(res).catch(() => '')) || `the node answered ${res.statusCode}`);
}

export function tunnelNodeControl(nodeId: string, dial: Dial): NodeControl {
  const broken = (err: Error) => new InternalError(`the connection to node ${nodeId} broke: ${err.message}`);

  /** Sends a request on a new data connection; `body` false leaves the body open for the caller to end. */
  async function send(method: string, path: string, body: string | false): Promise<{ req: ClientRequest; res: IncomingMessage }> {
    const socket = await dial();
    return new Promise((resolve, reject) => {
      const req = http.request({ method, path, host: 'node', createConnection: () => socket as Socket });
      // Until the node answers, as the forwarders between servers wait: a data connection dropped on the
      // way (a NAT forgetting it) would otherwise hold the request for good. A follow may then stay quiet.
      req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS / 1000} s`)));
      req.once('response', (res) => {
        req.setTimeout(0);
        // A response cut short fails its reader; the event itself must not go unheard.
        res.on('error', () => undefined);
        resolve({ req, res });
      });
      req.on('error', (err) => reject(broken(err)));
      if (body === false) req.flushHeaders();
      else req.end(body);
    });
  }

  async function call<T>(method: CallMethod, allocId: string, args: unknown[]): Promise<T> {
    const { res } = await send('POST', tunnelPaths.call(method, allocId), JSON.stringify(args));
    if (res.statusCode !== 200) throw await answered(res);
    return JSON.parse(await text(res).catch((err: Error) => Promise.reject(broken(err)))) as T;
  }

  /**
   * A reader on the node. While it follows, the request's body stays open, and it is ended once
   * `finished` holds: the node then reads what is left and ends the stream, as a reader here would.
   */
  async function stream(kind: 'read' | 'logs', allocId: string, args: Record<string, unknown>, opts: { follow: boolean; finished: () => boolean; signal: AbortSignal }): Promise<AsyncGenerator<StreamEvent>> {
    const { req, res } = await send('POST', tunnelPaths.stream(kind, allocId, args), false);
    if (res.statusCode !== 200) {
      const refusal = await answered(res);
      req.destroy();
      throw refusal;
    }
    let watch: NodeJS.Timeout | undefined;
    if (!opts.follow) req.end();
    else {
      watch = setInterval(() => {
        if (!opts.finished()) return;
        clearInterval(watch);
        req.end();
      }, POLL_MS);
    }
    // Also when the reader is dropped before its first read: the generator's finally then never runs.
    const stop = () => {
      clearInterval(watch);
      req.destroy();
    };
    opts.signal.addEventListener('abort', stop, { once: true });
    res.setEncoding('utf8');
    return (async function* events(): AsyncGenerator<StreamEvent> {
      let pending = '';
      try {
        for await (const chunk of res as AsyncIterable<string>) {
          pending += chunk;
          for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
            yield decodeEvent(pending.slice(0, nl));
            pending = pending.slice(nl + 1);
          }
        }
        if (!res.complete && !opts.signal.aborted) throw new Error('the stream ended early');
      } catch (err) {
        if (!opts.signal.aborted) throw broken(err as Error);
      } finally {
        clearInterval(watch);
        opts.signal.removeEventListener('abort', stop);
        req.destroy();
      }
    })();
  }

  const files = (allocId: string): AllocFs => ({
    ls: (path) => call('ls', allocId, [path]),
    stat: (path) => call('stat', allocId, [path]),
    read: (path, { finished, signal, ...opts }) => stream('read', allocId, { path, ...opts }, { follow: opts.follow, finished, signal }),
    logs: ({ finished, signal, ...opts }) => stream('logs', allocId, opts, { follow: opts.follow, finished, signal }),
  });

  return {
    signal: (allocId, signal, task) => call('signal', allocId, [signal, task ?? null]),
    restart: (allocId, opts) => call('restart', allocId, [opts]),
    pauseState: (allocId, task) => call('pauseState', allocId, [task]),
    setPauseState: (allocId, task, state) => call('setPauseState', allocId, [task, state]),
    checks: (allocId) => call('checks', allocId, []),
    allocStats: (allocId) => call('allocStats', allocId, []),
    hostStats: () => call('hostStats', NODE_ITSELF, []),
    files,
    exec: async (allocId, request) => {
      const socket = await dial();
      const ws = new WebSocket(`ws://node${tunnelPaths.stream('exec', allocId, request)}`, {
        createConnection: () => socket as Socket,
        perMessageDeflate: false,
        handshakeTimeout: DIAL_TIMEOUT_MS,
      });
      const session = new TunnelExecSession(ws, nodeId);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('unexpected-response', (_req, res) => {
          void answered(res).then((err) => {
            socket.destroy();
            reject(err);
          });
        });
        ws.once('error', (err) => reject(broken(err)));
      });
      return { start: async (size) => session.start(size) };
    },
  };
}
