/**
 * The server's end of one node's tunnel (src/scheduler/wire/tunnel-protocol.ts): the node's control
 * socket, the data connections asked for on it and dialed back by the node, and the node as a
 * NodeControl built on them. The server pings the control socket, so a node that went away (or a NAT
 * that forgot the connection) is noticed; when the tunnel closes, every data connection of it is cut.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { DIAL_TIMEOUT_MS, PING_MS } from '../wire/tunnel-protocol.js';
import { InternalError } from '../../shared/errors.js';
import { uuid } from '../../shared/ids.js';
import type { NodeControl } from '../wire/node-control.js';
import { tunnelNodeControl } from './tunnel-node-control.js';

interface Waiting {
  resolve(socket: Duplex): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class NodeTunnel {
  /** tells this connection from the node's next one (see cluster/node-holders.ts) */
  readonly id = uuid();
  readonly control: NodeControl;
  private readonly waiting = new Map<string, Waiting>();
  private readonly sockets = new Set<Duplex>();
  private readonly pinger: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly nodeId: string,
    private readonly ws: WebSocket,
    onClose: () => void,
  ) {
    let answered = true;
    ws.on('pong', () => (answered = true));
    this.pinger = setInterval(() => {
      if (!answered) return ws.terminate();
      answered = false;
      ws.ping();
    }, PING_MS);
    this.pinger.unref();
    // An error on the socket is followed by its close, where the tunnel ends.
    ws.on('error', () => undefined);
    ws.once('close', () => {
      this.shut();
      onClose();
    });
    this.control = tunnelNodeControl(nodeId, () => this.dial());
  }

  /** A new data connection to the node, for one request. */
  dial(): Promise<Duplex> {
    if (this.closed) return Promise.reject(this.gone());
    const streamId = uuid();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(streamId);
        reject(new InternalError(`node ${this.nodeId} did not open a connection through its tunnel within ${DIAL_TIMEOUT_MS / 1000} s`));
      }, DIAL_TIMEOUT_MS);
      this.waiting.set(streamId, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ dial: streamId }));
    });
  }

  /** The data connection the node dialed for `streamId`: false when no request waits for it. */
  accept(streamId: string, socket: Duplex): boolean {
    const waiting = this.waiting.get(streamId);
    if (!waiting || this.closed) return false;
    this.waiting.delete(streamId);
    clearTimeout(waiting.timer);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    waiting.resolve(socket);
    return true;
  }

  close(): void {
    this.ws.terminate();
    this.shut();
  }

  private gone(): Error {
    return new InternalError(`the tunnel of node ${this.nodeId} closed`);
  }

  private shut(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pinger);
    for (const waiting of this.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(this.gone());
    }
    this.waiting.clear();
    for (const socket of this.sockets) socket.destroy();
  }
}
