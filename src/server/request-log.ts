/**
 * The request log: one debug line a request, as Nomad's HTTP server writes it (`request complete` with the
 * method, path and duration), with the status and the request ID the answer carries in X-Svc-Request-Id,
 * so a line leads to its audit entry. Query values whose name says they hold a credential are not written.
 */
import type { Logger } from '../shared/log.js';
import type { RawRequest } from '../framework/http/types.js';

/** `ott`: the one-time token `svc ui -authenticate` puts in the web UI's address. */
const CREDENTIAL_NAME = /token|secret|password|signature|credential|^ott$/i;
/** Named like one, but a paging cursor (a record's ID), which a request's line should show. */
const NOT_CREDENTIALS = new Set(['next_token']);

function loggedPath(raw: RawRequest): string {
  if (raw.query.size === 0) return raw.path;
  const pairs: string[] = [];
  for (const [name, value] of raw.query) pairs.push(`${encodeURIComponent(name)}=${CREDENTIAL_NAME.test(name) && !NOT_CREDENTIALS.has(name) ? '<redacted>' : encodeURIComponent(value)}`);
  return `${raw.path}?${pairs.join('&')}`;
}

/** Writes the line for an answered request; `started` is process.hrtime.bigint() at its arrival. */
export function logRequest(log: Logger, raw: RawRequest, status: number, started: bigint, requestId: string): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  log.debug('request complete', { method: raw.method, path: loggedPath(raw), status, duration: `${ms.toFixed(3)}ms`, request_id: requestId });
}
