/** A secrets answer in Vault's JSON envelope; errors are written by the transport's secretsError. */
import type { RawResponse } from '../../framework/http/types.js';
import type { SecretsResponse } from '../framework/request.js';

/** `topLevel`: the route is one where Vault repeats `data`'s keys beside the envelope's (top-level-routes.ts). */
export function secretsOk(requestId: string, res: SecretsResponse | void, topLevel = false): RawResponse {
  if (res?.text !== undefined) return { status: res.status ?? 200, headers: { 'content-type': res.text.contentType }, body: res.text.body };
  if (res?.raw !== undefined) return { status: res.status ?? 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(res.raw) };
  const warnings = res?.warnings && res.warnings.length > 0 ? res.warnings : null;
  if (!res || (res.data == null && !res.auth && !warnings && !res.status)) {
    return { status: 204, headers: {}, body: '' };
  }
  const body = {
    ...(topLevel ? res.data : undefined),
    request_id: requestId,
    lease_id: '',
    renewable: false,
    lease_duration: res?.leaseDuration ?? 0,
    data: res.data ?? null,
    wrap_info: null,
    warnings,
    auth: res.auth ?? null,
  };
  return { status: res.status ?? 200, headers: { ...res.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
