/**
 * The HTTP client for both APIs, used by the CLI and by the tests. It uses node:http because it is on
 * every command's start-up path and loads in a few milliseconds.
 */
import type http from 'node:http';
import { ApiError, ConnectionError } from '../shared/errors.js';

export interface ClientConfig {
  address: string;
  token?: string;
  namespace?: string;
  region?: string;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** cancels the request (a blocking query nobody waits for any more) */
  signal?: AbortSignal;
}

/** The secrets API's response envelope. */
export interface SecretsEnvelope {
  request_id: string;
  data: Record<string, unknown> | null;
  auth: Record<string, unknown> | null;
  warnings: string[] | null;
  [key: string]: unknown;
}

export class ApiClient {
  constructor(readonly config: ClientConfig) {}

  url(path: string, query?: RequestOptions['query']): URL {
    const url = new URL(path, this.config.address.replace(/\/+$/, '') + '/');
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<RawAnswer> {
    const res = await this.open(method, path, opts);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
  }

  /**
   * Sends a request and answers the response as soon as its headers arrive, for bodies read as they come
   * (log streams); the caller reads the response to its end or destroys it. `signal` cancels the request.
   */
  async open(method: string, path: string, opts: RequestOptions & { signal?: AbortSignal } = {}): Promise<http.IncomingMessage> {
    const url = this.url(path, opts.query);
    const body = opts.body === undefined ? undefined : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    const headers: Record<string, string> = { ...opts.headers };
    if (this.config.token) headers['x-svc-token'] = this.config.token;
    if (body) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(body.length);
    }
    // Loaded here, not at the top: node:https pulls in TLS, which would slow every command's start.
    const lib = (url.protocol === 'https:' ? await import('node:https') : await import('node:http')) as Pick<typeof http, 'request'>;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers, agent: false, signal: opts.signal }, resolve);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.name === 'AbortError') return reject(err);
        const hint = err.code === 'ECONNREFUSED' ? ' (connection refused); is `svc server` running? Set SVC_ADDR or -address to point elsewhere' : `: ${err.message}`;
        reject(new ConnectionError(`cannot reach the server at ${this.config.address}${hint}`));
      });
      req.end(body);
    });
  }

  /** A secrets-API call: `/v1/<path>`. Answers the envelope, or undefined for 204. Errors throw ApiError. */
  async secrets(method: string, path: string, opts: RequestOptions = {}): Promise<SecretsEnvelope | undefined> {
    const full = `/v1/${path.replace(/^\/+/, '')}`;
    const answer = await this.request(method, full, opts);
    const text = answer.body.toString('utf8');
    if (answer.status >= 400) {
      let errors: string[] = [text];
      try {
        const parsed = JSON.parse(text) as { errors?: string[] };
        if (Array.isArray(parsed.errors)) errors = parsed.errors;
      } catch {
        // a non-JSON error body is shown as it is
      }
      throw new ApiError(answer.status, errors, this.url(full, opts.query).toString());
    }
    if (answer.status === 204 || text === '') return undefined;
    return JSON.parse(text) as SecretsEnvelope;
  }

  /** A scheduler-API call. Answers parsed JSON and the index header; errors (plain text) throw ApiError. */
  async scheduler<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<{ body: T; index: number; nextToken?: string }> {
    const query = { namespace: this.config.namespace, region: this.config.region, ...opts.query };
    const answer = await this.request(method, path, { ...opts, query });
    const text = answer.body.toString('utf8');
    if (answer.status >= 400) throw new ApiError(answer.status, [text.trim()], this.url(path, query).toString());
    return {
      body: (text === '' ? undefined : JSON.parse(text)) as T,
      index: Number(answer.headers['x-svc-index'] ?? 0),
      nextToken: answer.headers['x-svc-nexttoken'] as string | undefined,
    };
  }
}
