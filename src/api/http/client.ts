/**
 * The HTTP client for both APIs, used by the CLI and by the tests. It is on every command's start-up
 * path: a call read whole over plain HTTP is one exchange on a socket (./one-shot.ts), which starts
 * sooner than node:http; node:http sends the rest (bodies read as they come, and headers only it can
 * judge). TLS (./tls.ts, which also words failed connections) is loaded only for https:// addresses or a
 * failure, and proxying (./proxy.ts) only when a proxy variable is set.
 */
import type http from 'node:http';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import type { Readable } from 'node:stream';
import { ApiError, CurlStringRequested } from '../../shared/errors.js';
import type { ClientTls } from './tls.js';
import { oneShot, sendableHeaders } from './one-shot.js';

export interface ClientConfig {
  address: string;
  token?: string;
  namespace?: string;
  region?: string;
  /** for https:// addresses; its files are read at the first request */
  tls?: ClientTls;
  /** where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from (the CLI's environment); without it, no proxy */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
  /** one more error on a 403: the CLI's hint when it had no token to send */
  permissionDeniedHint?: string;
  /** the first request throws CurlStringRequested with its curl command instead of being sent */
  outputCurlString?: boolean;
}

/** A response whose body is read as it arrives: node:http's, or a proxied one with the same fields. */
export type ApiResponse = Readable & { statusCode?: number; headers: http.IncomingHttpHeaders };

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
  private tls?: Promise<HttpsRequestOptions>;

  constructor(readonly config: ClientConfig) {}

  /** The TLS options of https:// and wss:// connections, from `config.tls` (files read once). */
  tlsOptions(): Promise<HttpsRequestOptions> {
    this.tls ??= import('./tls.js').then((m) => m.tlsRequestOptions(this.config.tls));
    return this.tls;
  }

  url(path: string, query?: RequestOptions['query']): URL {
    const url = new URL(path, this.config.address.replace(/\/+$/, '') + '/');
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** The error for an error answer: `errors` as the server gave them, and the hint on a 403. */
  apiError(status: number, errors: string[], url: URL): ApiError {
    const hint = status === 403 ? this.config.permissionDeniedHint : undefined;
    return new ApiError(status, hint ? [...errors, hint] : errors, url.toString());
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<RawAnswer> {
    const { url, headers, body } = this.prepare(path, opts);
    const res = await this.send(method, url, headers, body, opts.signal, { whole: true });
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
  async open(method: string, path: string, opts: RequestOptions & { signal?: AbortSignal } = {}): Promise<ApiResponse> {
    const { url, headers, body } = this.prepare(path, opts);
    return this.send(method, url, headers, body, opts.signal);
  }

  private prepare(path: string, opts: RequestOptions): { url: URL; headers: Record<string, string>; body?: Buffer } {
    const url = this.url(path, opts.query);
    const body = opts.body === undefined ? undefined : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    const headers: Record<string, string> = { ...opts.headers };
    if (this.config.token) headers['x-svc-token'] = this.config.token;
    if (body) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(body.length);
    }
    return { url, headers, body };
  }

  /**
   * Sends a prepared request: over HTTP or HTTPS, through a proxy, or as a curl command instead. The
   * tests' in-process client answers it through the server's own request pipeline here instead.
   * `whole`: the caller reads the body to its end at once (no stream it paces), which lets a plain
   * HTTP request skip node:http.
   */
  protected async send(method: string, url: URL, headers: Record<string, string>, body: Buffer | undefined, signal?: AbortSignal, { whole = false } = {}): Promise<ApiResponse> {
    if (this.config.outputCurlString) {
      const { curlString } = await import('./curl-string.js');
      throw new CurlStringRequested(curlString(method, url, headers, body, this.config.tls));
    }
    const tls = url.protocol === 'https:' ? await this.tlsOptions() : {};
    const env = this.config.proxyEnv;
    if (env && (env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY)) {
      const proxied = await (await import('./proxy.js')).openIfProxied(this.config, url, { method, headers, body, signal }, tls);
      if (proxied) return proxied;
    }
    if (whole && url.protocol === 'http:' && sendableHeaders(headers)) {
      return oneShot(method, url, headers, body, signal).catch(async (err: NodeJS.ErrnoException) => {
        throw err.name === 'AbortError' ? err : await this.connectionError(err, url);
      });
    }
    // Loaded here, not at the top: node:https pulls in TLS, which would slow every command's start.
    const lib = (url.protocol === 'https:' ? await import('node:https') : await import('node:http')) as Pick<typeof http, 'request'>;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers, agent: false, signal, ...tls }, resolve);
      req.on('error', (err: NodeJS.ErrnoException) => (err.name === 'AbortError' ? reject(err) : this.connectionError(err, url).then(reject, reject)));
      req.end(body);
    });
  }

  private async connectionError(err: NodeJS.ErrnoException, url: URL): Promise<Error> {
    return (await import('./tls.js')).connectionError(err, url, this.config);
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
      throw this.apiError(answer.status, errors, this.url(full, opts.query));
    }
    if (answer.status === 204 || text === '') return undefined;
    return JSON.parse(text) as SecretsEnvelope;
  }

  /** A scheduler-API call. Answers parsed JSON and the index header; errors (plain text) throw ApiError. */
  async scheduler<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<{ body: T; index: number; nextToken?: string }> {
    const query = { namespace: this.config.namespace, region: this.config.region, ...opts.query };
    const answer = await this.request(method, path, { ...opts, query });
    const text = answer.body.toString('utf8');
    if (answer.status >= 400) throw this.apiError(answer.status, [text.trim()], this.url(path, query));
    return {
      body: (text === '' ? undefined : JSON.parse(text)) as T,
      index: Number(answer.headers['x-svc-index'] ?? 0),
      nextToken: answer.headers['x-svc-nexttoken'] as string | undefined,
    };
  }
}
