/**
 * Routing by path prefix: /v1/sys, /v1/auth, /v1/identity and the secrets engines' mounts go to the
 * secrets side, everything else to the scheduler side. The two sides' handlers are passed in, so the
 * transport imports neither.
 */
import { schedulerError, secretsError } from './respond.js';
import type { RawRequest, RawResponse } from './types.js';
import { schedulerRequests, secretsRequests, UNMATCHED_ROUTE, type RequestMetrics } from './metrics.js';

export interface SideHandlers {
  /** `rel` is the decoded path below /v1/, e.g. auth/token/create */
  secrets(raw: RawRequest, rel: string, requestId: string): Promise<RawResponse>;
  /** `parts` are the decoded path segments, /v1 included; undefined when no route matches */
  scheduler(raw: RawRequest, parts: string[], requestId: string): Promise<RawResponse | undefined>;
  /** Why the request's token is refused, or undefined when it is a valid one. */
  tokenRefusal(raw: RawRequest): Promise<Error | undefined>;
  /** Whether a secrets engine is mounted below /v1/<segment>/ (kv at secret/): those paths are the secrets side's too. */
  secretsMount?(segment: string): boolean;
}

const SECRETS_PREFIXES = new Set(['sys', 'auth', 'identity']);

/** Whether path segments (`['v1', 'sys', ...]`) name the secrets API. */
export function isSecretsPath(parts: string[]): boolean {
  return parts[0] === 'v1' && SECRETS_PREFIXES.has(parts[1] ?? '');
}

/** Whether decoded path segments are the secrets side's: its prefixes, or a path below a mounted engine. */
export function isSecretsSidePath(parts: string[], secretsMount: ((segment: string) => boolean) | undefined): boolean {
  return isSecretsPath(parts) || (parts[0] === 'v1' && parts[1] !== undefined && secretsMount?.(parts[1]) === true);
}

/** An error answer in the format of the side the (still encoded) path belongs to. */
export function sideError(path: string, status: number, message: string): RawResponse {
  return isSecretsPath(path.split('/').slice(1)) ? secretsError(status, [message]) : schedulerError(status, message);
}

/** Counts the answer by its route and status, with the time since `started`. */
function answered(requests: RequestMetrics, raw: RawRequest, started: number, answer: RawResponse): RawResponse {
  requests.cell(raw.method, answer.route ?? UNMATCHED_ROUTE, answer.status).since(started);
  return answer;
}

export function createRouter(sides: SideHandlers): (raw: RawRequest, requestId: string) => Promise<RawResponse> {
  return async (raw, requestId) => {
    const started = performance.now();
    let parts: string[];
    // Most paths have nothing encoded in them: those need no decoding.
    const encoded = raw.path.includes('%');
    try {
      parts = raw.path.split('/').slice(1);
      if (encoded) parts = parts.map(decodeURIComponent);
    } catch {
      const secrets = isSecretsPath(raw.path.split('/').slice(1));
      const requests = secrets ? secretsRequests : schedulerRequests;
      // No route can match, so who may not ask learns nothing, not even that the path is malformed.
      const refused = await sides.tokenRefusal(raw);
      if (refused) return answered(requests, raw, started, secrets ? secretsError(403, ['permission denied']) : schedulerError(403, refused.message));
      const message = `invalid URL path encoding: ${raw.path}`;
      return answered(requests, raw, started, secrets ? secretsError(400, [message]) : schedulerError(400, message));
    }
    if (isSecretsSidePath(parts, sides.secretsMount)) {
      // Below /v1/, as it came when nothing in it was encoded.
      const rel = encoded ? parts.slice(1).join('/') : raw.path.slice('/v1/'.length);
      return answered(secretsRequests, raw, started, await sides.secrets(raw, rel, requestId));
    }
    const answer = await sides.scheduler(raw, parts, requestId);
    return answered(schedulerRequests, raw, started, answer ?? schedulerError(404, 'resource not found'));
  };
}
