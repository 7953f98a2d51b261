/**
 * Passes a request that reaches into a running task on to the server of the cluster that reaches the
 * allocation's node (node-holders.ts), and relays its answer as it comes, so a log follow streams through
 * both servers; an exec upgrade becomes a byte pipe between the caller and that server, which then speaks
 * the WebSocket itself. Over TLS it connects as peer-agents.ts says, as when it forwards to the leader.
 */
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { InternalError } from '../shared/errors.js';
import type { RawRequest, RawResponse } from '../framework/http/types.js';
import { peerAgents, peerRequest, type PeerTls } from './peer-agents.js';

/** How long the other server has to answer a forwarded request, or to take a forwarded upgrade's connection. */
const ANSWER_WITHIN_MS = 10_000;

/** Marks a forwarded request: the server it reaches answers it, whatever its copy of the state says. */
export const FORWARDED_HEADER = 'x-svc-forwarded-to-node';

export interface NodeForwarder {
  /** The other server's answer, its body streamed as it comes. */
  request(raw: RawRequest, address: string): Promise<RawResponse>;
  /** Hands the upgrade to the other server; rejects (nothing sent yet) when it cannot be reached. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, address: string): Promise<void>;
}

const unreachable = (address: string, err: Error) => new InternalError(`the server at ${address}, which reaches the allocation's node, did not answer: ${err.message}`);

export function nodeForwarder(peerTls?: PeerTls): NodeForwarder {
  const agentFor = peerAgents(peerTls);

  return {
    request(raw, address) {
      return peerRequest(raw, address, agentFor, ANSWER_WITHIN_MS, { [FORWARDED_HEADER]: '1' }).catch((err: Error) => Promise.reject(unreachable(address, err)));
    },

    upgrade(req, socket, head, address) {
      const url = new URL(address);
      const secure = url.protocol === 'https:';
      const port = Number(url.port || (secure ? 443 : 80));
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const upstream = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ...peerTls }) : net.connect(port, host);
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i];
        lines.push(name.toLowerCase() === 'host' ? `${name}: ${url.host}` : `${name}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`${FORWARDED_HEADER}: 1`);
      // The caller may go away while the other server is being reached: the connection goes with it.
      socket.on('error', () => upstream.destroy());
      socket.once('close', () => upstream.destroy());
      upstream.setTimeout(ANSWER_WITHIN_MS, () => upstream.destroy(new Error(`not reached within ${ANSWER_WITHIN_MS / 1000} s`)));
      return new Promise((resolve, reject) => {
        upstream.once('error', (err) => reject(unreachable(address, err)));
        upstream.once(secure ? 'secureConnect' : 'connect', () => {
          upstream.setTimeout(0);
          upstream.removeAllListeners('error');
          upstream.on('error', () => socket.destroy());
          upstream.once('close', () => socket.destroy());
          upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
          if (head.length > 0) upstream.write(head);
          upstream.pipe(socket);
          socket.pipe(upstream);
          resolve();
        });
      });
    },
  };
}
