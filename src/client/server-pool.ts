/**
 * The servers a node talks to. Requests go to one of them; a connection failure or a 5xx answer moves
 * the node on to the next in turn (round robin) and the request is tried there, so a node survives the
 * loss of the server it talked to, as a Nomad client does with its server list.
 */
import { ApiClient, type RequestOptions, type SecretsEnvelope } from '../api/http/client.js';
import type { ClientTls } from '../api/http/tls.js';
import { ApiError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';

/** Whether another server may answer what this one could not: it is unreachable, or failed itself. */
function worthAnotherServer(err: unknown): boolean {
  if (err instanceof ApiError) return err.statusCode >= 500;
  return !(err instanceof Error && err.name === 'AbortError');
}

/** An error in one line: the API client's ApiError message spans several. */
export function oneLine(err: unknown): string {
  if (err instanceof ApiError) return `${err.statusCode} ${err.errors.join('; ')}`;
  return (err as Error).message;
}

/**
 * How long a request may go unanswered before the node tries the next server: a server host that crashed
 * or was cut off mid-request never answers, and a heartbeat waiting on it would stop the node's heartbeats.
 */
const REQUEST_DEADLINE_MS = 15_000;

export class ServerPool {
  private readonly clients: ApiClient[];
  private current = 0;

  constructor(
    addresses: string[],
    tls: ClientTls | undefined,
    private readonly log: Logger,
  ) {
    if (addresses.length === 0) throw new Error('a node needs at least one server');
    this.clients = addresses.map((address) => new ApiClient({ address, tls }));
  }

  /** The server requests go to now. */
  get address(): string {
    return this.clients[this.current].config.address;
  }

  /** The client of the server requests go to now (its TLS options, for connections of the node's own). */
  get client(): ApiClient {
    return this.clients[this.current];
  }

  /**
   * Moves on to the next server when `address` is still the one in use: it failed. Requests in flight
   * together fail together, so only the first of them moves the node on.
   */
  moveOn(address: string, reason: string): void {
    if (this.address !== address || this.clients.length < 2) return;
    this.current = (this.current + 1) % this.clients.length;
    this.log.warn(`server ${address} failed (${reason}); using ${this.address}`);
  }

  /**
   * A scheduler-API call with `token` as the request's token, to the current server and then to each
   * other once at most. Throws the last server's error when none answered, and at once a 4xx answer
   * (another server would say the same) or a cancelled request.
   */
  async scheduler<T>(method: string, path: string, token: string, opts: RequestOptions & { deadlineMs?: number } = {}): Promise<{ body: T; index: number }> {
    return this.withFailover(opts, (client, signal) => client.scheduler<T>(method, path, { ...opts, signal, headers: { ...opts.headers, 'x-svc-token': token } }));
  }

  /** A secrets-API call (`/v1/<path>`) with `token`, tried on the other servers as `scheduler` is. */
  async secrets(method: string, path: string, token: string, opts: RequestOptions = {}): Promise<SecretsEnvelope | undefined> {
    return this.withFailover(opts, (client, signal) => client.secrets(method, path, { ...opts, signal, headers: { ...opts.headers, 'x-svc-token': token } }));
  }

  /**
   * A secrets-API read answering only its X-Svc-Index header (svc's KV blocking reads; `query` carries
   * index and wait), undefined when the answer has none: the path cannot be watched so.
   */
  async secretsIndex(path: string, token: string, opts: RequestOptions & { deadlineMs?: number } = {}): Promise<number | undefined> {
    const full = `/v1/${path.replace(/^\/+/, '')}`;
    return this.withFailover(opts, async (client, signal) => {
      const answer = await client.request('GET', full, { ...opts, signal, headers: { ...opts.headers, 'x-svc-token': token } });
      const header = answer.headers['x-svc-index'];
      if (typeof header === 'string') return Number(header);
      if (answer.status >= 400) throw new ApiError(answer.status, [answer.body.toString('utf8').trim()], full);
      return undefined;
    });
  }

  private async withFailover<T>(opts: { signal?: AbortSignal; deadlineMs?: number }, call: (client: ApiClient, signal: AbortSignal) => Promise<T>): Promise<T> {
    let last: unknown;
    for (let tried = 0; tried < this.clients.length; tried++) {
      const at = this.current;
      const deadline = AbortSignal.timeout(opts.deadlineMs ?? REQUEST_DEADLINE_MS);
      const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
      try {
        return await call(this.clients[at], signal);
      } catch (err) {
        if (opts.signal?.aborted || !(deadline.aborted || worthAnotherServer(err))) throw err;
        last = err;
        this.moveOn(this.clients[at].config.address, oneLine(err));
      }
    }
    throw last;
  }
}
