/**
 * The node's end of its tunnel (src/scheduler/wire/tunnel-protocol.ts): one WebSocket to the server the
 * node talks to, kept open and opened again when it drops (moving on to the next server when that one
 * cannot be reached), and a data connection dialed for each request the server sends through it, served
 * by the node's handler.
 */
import type { RequestOptions } from 'node:https';
import { WebSocket } from 'ws';
import type { Logger } from '../../shared/log.js';
import type { ServerPool } from '../server-pool.js';
import type { NodeHandler } from './node-handler.js';
import { DIAL_TIMEOUT_MS, PING_MS, TUNNEL_PROTOCOL, tunnelPaths, type DialMessage } from '../../scheduler/wire/tunnel-protocol.js';

const RETRY_MS = 1000;
const MAX_RETRY_MS = 10_000;

export interface TunnelClientOptions {
  pool: ServerPool;
  nodeId: string;
  secret: string;
  handler: NodeHandler;
  log: Logger;
}

export class TunnelClient {
  private ws: WebSocket | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MS;
  private stopped = false;

  constructor(private readonly opts: TunnelClientOptions) {}

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.ws?.terminate();
    this.opts.handler.close();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { pool, nodeId, secret, log } = this.opts;
    const client = pool.client;
    const address = client.config.address;
    let tls: RequestOptions;
    try {
      tls = address.startsWith('https:') ? await client.tlsOptions() : {};
    } catch (err) {
      // Tried again as a tunnel that could not open is: a tunnel given up on would leave the node unreachable.
      log.error(`node tunnel: ${(err as Error).message}`);
      this.again(false);
      return;
    }
    if (this.stopped) return;
    const url = new URL(tunnelPaths.control(nodeId), address);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url, { headers: { 'x-svc-token': secret }, perMessageDeflate: false, handshakeTimeout: DIAL_TIMEOUT_MS, ...tls });
    this.ws = ws;
    let opened = false;
    let watchdog: NodeJS.Timeout | undefined;
    // The server pings every PING_MS; a connection that stays silent for longer is gone (a NAT forgot it).
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => ws.terminate(), 3 * PING_MS);
      watchdog.unref();
    };
    ws.on('open', () => {
      opened = true;
      this.retryMs = RETRY_MS;
      alive();
      log.debug(`node tunnel open to ${address}`);
    });
    ws.on('ping', alive);
    ws.on('message', (data) => {
      alive();
      let message: DialMessage;
      try {
        message = JSON.parse(data.toString()) as DialMessage;
      } catch {
        return;
      }
      if (typeof message.dial === 'string') this.dial(address, message.dial, tls);
    });
    let refused = false;
    ws.on('unexpected-response', (_req, res) => {
      refused = true;
      const status = res.statusCode ?? 0;
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        log.warn(`node tunnel to ${address} refused (${status}): ${text.trim()}`);
        if (status >= 500) pool.moveOn(address, `tunnel refused with ${status}`);
        ws.terminate();
      });
    });
    ws.on('error', (err) => {
      if (!opened && !refused && !this.stopped) {
        log.warn(`node tunnel to ${address} failed: ${err.message}`);
        pool.moveOn(address, err.message);
      }
    });
    ws.on('close', () => {
      clearTimeout(watchdog);
      if (this.ws === ws) this.ws = undefined;
      if (this.stopped) return;
      if (opened) log.debug(`node tunnel to ${address} closed; opening it again`);
      this.again(opened);
    });
  }

  /** Opens the tunnel again: at once after one that opened, after a longer wait each time one could not. */
  private again(opened: boolean): void {
    const wait = opened ? RETRY_MS : this.retryMs;
    if (!opened) this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retry = setTimeout(() => void this.connect(), wait);
  }

  /** The data connection for one request the server has: dialed to the server that asked. */
  private dial(address: string, streamId: string, tls: RequestOptions): void {
    const { nodeId, secret, log, handler } = this.opts;
    const url = new URL(tunnelPaths.data(nodeId, streamId), address);
    void (url.protocol === 'https:' ? import('node:https') : import('node:http')).then((lib) => {
      if (this.stopped) return;
      const req = lib.request(url, { headers: { connection: 'Upgrade', upgrade: TUNNEL_PROTOCOL, 'x-svc-token': secret }, agent: false, timeout: DIAL_TIMEOUT_MS, ...tls });
      // Past this the server has given up on the request the connection was for.
      req.on('timeout', () => req.destroy(new Error(`no answer within ${DIAL_TIMEOUT_MS / 1000} s`)));
      req.on('upgrade', (_res, socket, head) => {
        if (this.stopped) return socket.destroy();
        if (head.length > 0) socket.unshift(head);
        // The dial's timeout is over: a follow or an exec session may stay quiet for long.
        socket.setTimeout(0);
        socket.setNoDelay(true);
        handler.serve(socket);
      });
      req.on('response', (res) => {
        res.resume();
        log.warn(`node tunnel: the server refused the data connection ${streamId} (${res.statusCode})`);
      });
      req.on('error', (err) => log.warn(`node tunnel: dialing ${address} for ${streamId} failed: ${err.message}`));
      req.end();
    });
  }
}
