/**
 * What a secrets handler is given and answers: the request as the pipeline resolved it (mount, path
 * parameters, the caller), and the response the pipeline wraps in Vault's envelope.
 */
import type { Operation } from '../../framework/schema/field-schema.js';
import type { RawRequest } from '../../framework/http/types.js';
import type { SecretsContext } from '../context.js';
import type { AuthBlock } from '../token/auth-block.js';
import type { TokenCaller } from '../token/caller.js';

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
  caller?: TokenCaller;
  /** the raw token the caller sent; needed by the *-self token endpoints */
  clientToken?: string;
  remoteAddress: string;
  headers: RawRequest['headers'];
  services: SecretsContext;
  /** the request's data as sent, on paths that take arbitrary input and on a PATCH a path answers itself */
  input?: Record<string, unknown>;
}

export interface SecretsResponse {
  data?: Record<string, unknown> | null;
  auth?: AuthBlock;
  warnings?: string[];
  /** seconds: the envelope's lease_duration (a KV version 1 read's refresh interval); 0 by default */
  leaseDuration?: number;
  /** 200 by default, or 204 when there is no data, auth or warning */
  status?: number;
  /** answered as this JSON body without the envelope (sys/health, as Vault does), with `status` if given */
  raw?: unknown;
  /** headers the envelope's answer carries besides its content type (a KV read's X-Svc-Index) */
  headers?: Record<string, string>;
  /** answered as this body of this content type, without the envelope (sys/metrics in Prometheus' format) */
  text?: { contentType: string; body: string };
}
