/**
 * The server without a port, a disk or a database, for tests where HTTP is not the subject: built with
 * the memory store, answered through its own request pipeline (`handle`), the one node:http feeds.
 * `client()` is the real API client with only its last step, the socket, replaced by that pipeline, so a
 * test written against a listening server's `client()` reads the same here.
 */
import { rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { ApiClient, type ApiResponse, type ClientConfig } from '../../src/api/http/client.js';
import { buildServer, type ServerOptions, type SvcServer } from '../../src/server/app.js';
import type { RawRequest, RawResponse } from '../../src/framework/http/types.js';
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
  /** holds the keyring (and the state, with `memoryStorage: false`) */
  dataDir: string;
  /** `path` with its query, as on the wire; `token` defaults to the root token ('' sends none). */
  request(method: string, path: string, opts?: { body?: unknown; token?: string }): Promise<InProcessAnswer>;
  /** an API client with the root token, or with the given token ('' for none), answered in process */
  client(token?: string): ApiClient;
  close(): Promise<void>;
}

const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** What node:http would hand the client: the status, the headers and the body as a stream. */
function asResponse(answer: RawResponse, signal?: AbortSignal): ApiResponse {
  const res = Object.assign(new PassThrough(), { statusCode: answer.status, headers: lowerCased(answer.headers) });
  if (!answer.stream) {
    res.end(answer.body);
    return res;
  }
  const gone = new AbortController();
  const abort = () => gone.abort();
  signal?.addEventListener('abort', abort, { once: true });
  res.once('close', abort);
  const write = async (chunk: Buffer | string) => {
    if (gone.signal.aborted || res.destroyed || res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      res.once('drain', resolve);
      gone.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  };
  answer.stream(write, gone.signal).then(
    () => res.end(),
    // As the listener cuts the connection, so the reader sees an incomplete body.
    () => res.destroy(new Error('the stream was cut')),
  );
  return res;
}

class InProcessClient extends ApiClient {
  constructor(
    private readonly handle: (raw: RawRequest) => Promise<RawResponse>,
    config: ClientConfig,
  ) {
    super(config);
  }

  protected override async send(method: string, url: URL, headers: Record<string, string>, body: Buffer | undefined, signal?: AbortSignal): Promise<ApiResponse> {
    signal?.throwIfAborted();
    const answer = await this.handle({ method, path: url.pathname, query: url.searchParams, headers, body: body ?? Buffer.alloc(0), remoteAddress: '127.0.0.1' });
    return asResponse(answer, signal);
  }
}

export async function startInProcessServer(opts: Partial<ServerOptions> = {}): Promise<InProcessServer> {
  const dataDir = opts.dataDir ?? (await makeTempDir('svc-inproc-'));
  const server = await buildServer({ dev: false, dataDir, client: false, memoryStorage: true, logWrite: () => undefined, ...opts });
  const rootToken = server.rootToken!;
  const handle = (raw: RawRequest) => server.handle(raw);
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
      const json = (lowerCased(answer.headers)['content-type'] ?? '').includes('json');
      return { status: answer.status, headers: answer.headers, body: json && text ? JSON.parse(text) : text };
    },
    client: (token = rootToken) => new InProcessClient(handle, { address: 'http://in-process', token: token || undefined }),
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
