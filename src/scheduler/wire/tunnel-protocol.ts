/**
 * The node tunnel, as both ends speak it. A node on another machine keeps one WebSocket open to its
 * server (GET /v1/node/:node_id/tunnel, its secret as the token), so the server can reach it behind NAT
 * as Nomad's servers reach their clients over the client's own connection. When the server needs the
 * node, it sends `{"dial":"<stream id>"}` over that socket, and the node opens a data connection
 * (GET /v1/node/:node_id/tunnel/:stream_id, `Upgrade: svc-tunnel`): after the 101 the connection is a
 * plain byte stream on which the server, as an HTTP client, sends one request to the node's own
 * handler (src/client/tunnel/node-handler.ts). One request per data connection, so streams (log
 * follows) and exec sessions get TCP's flow control as they are, and nothing is multiplexed by hand.
 *
 * The node's handler answers:
 *
 *   POST /call/:method/:alloc_id     JSON array of arguments → the JSON result (signal, restart, checks, ...)
 *   POST /read/:alloc_id?args=JSON   a file of the allocation directory, as stream events (below)
 *   POST /logs/:alloc_id?args=JSON   a task's log, as stream events
 *   GET  /exec/:alloc_id?args=JSON   a WebSocket: `{"start":{"rows":R,"cols":C}|null}`, then Nomad's exec frames
 *
 * Errors are the status and the message as plain text, as the scheduler API answers them. A read or log
 * request keeps its body open while the reader may follow: the server ends it once nothing will write
 * to the file any more (the task is dead), which is the node's `finished`.
 */
import { SvcError } from '../../shared/errors.js';
import { FILE_DELETED, FILE_TRUNCATED, type StreamEvent } from './stream-frames.js';

/** The `Upgrade` a data connection asks for. */
export const TUNNEL_PROTOCOL = 'svc-tunnel';

/**
 * How often the server pings the control socket. A server whose ping went unanswered until the next, or
 * a node that heard nothing for three pings' time, drops the socket: the node then connects again.
 */
export const PING_MS = 10_000;

/** How long the server waits for the node to dial a data connection it asked for. */
export const DIAL_TIMEOUT_MS = 10_000;

/** What the server sends on the control socket. */
export interface DialMessage {
  dial: string;
}

/** The methods `POST /call/:method/:alloc_id` answers. */
export const CALLS = ['signal', 'restart', 'pauseState', 'setPauseState', 'checks', 'allocStats', 'hostStats', 'ls', 'stat'] as const;

/** The `:alloc_id` of a call about the node itself (hostStats). */
export const NODE_ITSELF = '-';
export type CallMethod = (typeof CALLS)[number];

export const tunnelPaths = {
  control: (nodeId: string) => `/v1/node/${nodeId}/tunnel`,
  data: (nodeId: string, streamId: string) => `/v1/node/${nodeId}/tunnel/${streamId}`,
  call: (method: CallMethod, allocId: string) => `/call/${method}/${allocId}`,
  stream: (kind: 'read' | 'logs' | 'exec', allocId: string, args: unknown) => `/${kind}/${allocId}?args=${encodeURIComponent(JSON.stringify(args))}`,
};

/** An error the node answered: its status and message, passed on to the caller as they are. */
export class NodeAnswer extends SvcError {
  override readonly statusCode: number;

  constructor(status: number, message: string) {
    super(message);
    this.statusCode = status;
  }
}

/** One stream event as a line of JSON: data in base64, an idle tick as `{}`. */
export function encodeEvent(e: StreamEvent): string {
  if (e.kind === 'data') return `${JSON.stringify({ f: e.file, o: e.end, d: e.data.toString('base64') })}\n`;
  if (e.kind === 'event') return `${JSON.stringify({ f: e.file, o: e.offset, e: e.event })}\n`;
  return '{}\n';
}

export function decodeEvent(line: string): StreamEvent {
  const v = JSON.parse(line) as { f?: string; o?: number; d?: string; e?: string };
  if (v.d !== undefined) return { kind: 'data', file: v.f ?? '', data: Buffer.from(v.d, 'base64'), end: v.o ?? 0 };
  if (v.e === FILE_DELETED || v.e === FILE_TRUNCATED) return { kind: 'event', file: v.f ?? '', event: v.e, offset: v.o ?? 0 };
  return { kind: 'idle' };
}
