/**
 * The server's side of node tunnels (src/scheduler/wire/tunnel-protocol.ts), on the API port:
 *
 *   GET /v1/node/:node_id/tunnel             (node secret; WebSocket) the node's control socket
 *   GET /v1/node/:node_id/tunnel/:stream_id  (node secret; Upgrade: svc-tunnel) a data connection the
 *                                            server asked the node for
 *
 * Both are the node API, authenticated as its other routes are (the node's secret as the token, and a
 * verified client certificate when the server requires one of nodes). Each server records which nodes it
 * holds the tunnel of, for the other servers of a cluster to forward requests to it.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { TUNNEL_PROTOCOL } from '../wire/tunnel-protocol.js';
import { forgetHolder, recordHolder } from '../../cluster/node-holders.js';
import type { RawRequest } from '../../framework/http/types.js';
import type { SchedulerContext } from '../context.js';
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { authenticateNode } from './caller.js';
import { NODE_CERT_REQUIRED } from './pipeline.js';

const PATH = /^\/v1\/node\/([^/]+)\/tunnel(?:\/([^/]+))?$/;

export interface TunnelTarget {
  nodeId: string;
  /** a data connection's stream; undefined for the control socket */
  streamId?: string;
}

/** The tunnel path an upgrade asks for, or undefined for any other path. */
export function tunnelTarget(path: string): TunnelTarget | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  try {
    return { nodeId: decodeURIComponent(m[1]), streamId: m[2] === undefined ? undefined : decodeURIComponent(m[2]) };
  } catch {
    return undefined;
  }
}

export function createTunnelEndpoint(services: SchedulerContext) {
  // The control socket carries nothing from the node but pongs.
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 4096 });
  const { tunnels } = services.scheduler;
  const selfId = () => services.leadership.self.ID;
  const logged = (what: string) => (err: Error) => services.log.warn(`node tunnel: ${what}: ${err.message}`);

  function attach(nodeId: string, ws: WebSocket): void {
    const tunnel = tunnels.attach(nodeId, ws, (closed) => {
      services.log.debug(`node ${nodeId} closed its tunnel`);
      // At shutdown the member list drops this server, which is what tells the others.
      if (!services.stopping) forgetHolder(services.store, nodeId, closed.id).catch(logged(`forgetting node ${nodeId}`));
    });
    services.log.debug(`node ${nodeId} opened its tunnel`);
    recordHolder(services.store, nodeId, selfId(), tunnel.id).catch(logged(`recording node ${nodeId}`));
  }

  return {
    handle(req: IncomingMessage, raw: RawRequest, socket: Duplex, head: Buffer, target: TunnelTarget): void {
      if (services.config.nodeClientCert && !raw.clientCertVerified) throw new PermissionDenied(NODE_CERT_REQUIRED);
      authenticateNode(raw, target.nodeId, services);
      if (req.method !== 'GET') throw new UserError('a tunnel upgrade is a GET request');
      const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
      if (target.streamId === undefined) {
        if (upgrade !== 'websocket') throw new UserError('the node tunnel speaks WebSocket: send "Upgrade: websocket"');
        wss.handleUpgrade(req, socket, head, (ws) => attach(target.nodeId, ws));
        return;
      }
      if (upgrade !== TUNNEL_PROTOCOL) throw new UserError(`a tunnel data connection asks for "Upgrade: ${TUNNEL_PROTOCOL}"`);
      if (!tunnels.accept(target.nodeId, target.streamId, socket)) throw new NotFound(`no request of this server waits for tunnel stream ${target.streamId} of node ${target.nodeId}`);
      // The request waiting for this connection writes to it only after these lines (a later microtask).
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${TUNNEL_PROTOCOL}\r\n\r\n`);
      if (head.length > 0) socket.unshift(head);
      (socket as Socket).setNoDelay(true);
    },
    close(): void {
      tunnels.closeAll();
      wss.close();
    },
  };
}
