/**
 * Request and response shapes at the HTTP boundary. The pipelines work on these plain objects, so the
 * same code answers requests from node:http, from the LIST fallback below the parser, and from tests.
 */
export interface RawRequest {
  method: string;
  /** the URL path, still percent-encoded */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  remoteAddress: string;
  /** the connection presented a client certificate that verified against the server's client CAs (TLS) */
  clientCertVerified?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /**
   * A body produced over time (log and file streams), sent instead of `body`: the listener sends the
   * status and headers, then runs this until it settles, and ends the response. `write` resolves once
   * the chunk is handed to the socket without exceeding its buffer (backpressure); `signal` aborts when
   * the client goes away. Throwing after the headers went out cuts the connection, so the client sees an
   * incomplete body rather than a complete-looking one.
   */
  stream?: ResponseStream;
  /** the route pattern that answered (`/v1/job/:job_id`), which the request metrics count by */
  route?: string;
}

export type ResponseStream = (write: (chunk: Buffer | string) => Promise<void>, signal: AbortSignal) => Promise<void>;
