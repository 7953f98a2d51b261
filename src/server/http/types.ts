/**
 * Request and response shapes at the HTTP boundary. The core handler works on these plain objects, so
 * the same code answers requests from node:http, from the LIST fallback below the parser, and from tests.
 */
import type { Operation } from '../framework/field-schema.js';
import type { TokenEntry } from '../../secrets/token/token-entry.js';
import type { Acl } from '../../secrets/policy/acl.js';
import type { Services } from '../services.js';

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
}

export type ResponseStream = (write: (chunk: Buffer | string) => Promise<void>, signal: AbortSignal) => Promise<void>;

export interface Caller {
  token: TokenEntry;
  acl: Acl;
}

export interface SecretsRequest {
  requestId: string;
  operation: Operation;
  /** path relative to /v1/, e.g. auth/token/create */
  fullPath: string;
  /** path relative to the mount */
  path: string;
  mountPath: string;
  mountAccessor: string;
  params: Record<string, string>;
  /** set unless the path is unauthenticated and no token was sent */
  caller?: Caller;
  /** the raw token the caller sent; needed by the *-self token endpoints */
  clientToken?: string;
  remoteAddress: string;
  headers: RawRequest['headers'];
  services: Services;
}

export interface AuthBlock {
  client_token: string;
  accessor: string;
  policies: string[];
  token_policies: string[];
  identity_policies?: string[];
  metadata: Record<string, string> | null;
  lease_duration: number;
  renewable: boolean;
  entity_id: string;
  token_type: string;
  orphan: boolean;
  mfa_requirement: null;
  num_uses: number;
}

export interface SecretsResponse {
  data?: Record<string, unknown> | null;
  auth?: AuthBlock;
  warnings?: string[];
  /** 200 by default, or 204 when there is no data, auth or warning */
  status?: number;
  /** answered as this JSON body without the envelope (sys/health, as Vault does) */
  raw?: unknown;
}
