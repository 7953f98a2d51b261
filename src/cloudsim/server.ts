/** The one HTTP server on 127.0.0.1: /latest/ is the metadata service, every other path the API endpoint. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { handleApi } from './api.js';
import { errorBody } from './errors.js';
import { send } from './http.js';
import { handleMetadata } from './metadata.js';
import type { SimState } from './state.js';

export interface SimServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function listen(s: SimState, port: number): Promise<SimServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      Promise.resolve()
        .then(() => ((req.url ?? '').startsWith('/latest/') ? handleMetadata(s, req, res) : handleApi(s, req, res, body)))
        .catch((e: unknown) => {
          if (!res.headersSent) send(res, 500, errorBody('sts', 'InternalFailure', String(e), randomUUID()), 'text/xml');
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
