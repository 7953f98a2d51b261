/**
 * The server without a port, a disk or a database, for tests where HTTP is not the subject: built with
 * the memory store, answered through its own request pipeline (`handle`), the one node:http feeds.
 */
import { rm } from 'node:fs/promises';
import { buildServer, type ServerOptions, type SvcServer } from '../../src/server/app.js';
import type { RawRequest } from '../../src/framework/http/types.js';
import { makeTempDir } from './server.js';

export interface InProcessAnswer {
  status: number;
  headers: Record<string, string>;
  /** the body parsed as JSON when it is JSON, else as text */
  body: unknown;
}

export interface InProcessServer {
  server: SvcServer;
  rootToken: string;
  /** holds the keyring only */
  dataDir: string;
  /** `path` with its query, as on the wire; `token` defaults to the root token ('' sends none). */
  request(method: string, path: string, opts?: { body?: unknown; token?: string }): Promise<InProcessAnswer>;
  close(): Promise<void>;
}

export async function startInProcessServer(opts: Partial<ServerOptions> = {}): Promise<InProcessServer> {
  // The keyring still lives in a data dir; the state does not.
  const dataDir = await makeTempDir('svc-inproc-');
  const server = await buildServer({ dev: false, dataDir, client: false, memoryStorage: true, logWrite: () => undefined, ...opts });
  const rootToken = server.rootToken!;
  return {
    server,
    rootToken,
    dataDir,
    async request(method, path, { body, token = rootToken } = {}) {
      const url = new URL(path, 'http://in-process');
      const raw: RawRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: { ...(token ? { 'x-svc-token': token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
        remoteAddress: '127.0.0.1',
      };
      const answer = await server.handle(raw);
      let text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8');
      if (answer.stream) {
        const chunks: string[] = [];
        await answer.stream(async (chunk) => void chunks.push(chunk.toString()), new AbortController().signal);
        text = chunks.join('');
      }
      const json = (answer.headers['content-type'] ?? answer.headers['Content-Type'] ?? '').includes('json');
      return { status: answer.status, headers: answer.headers, body: json && text ? JSON.parse(text) : text };
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
