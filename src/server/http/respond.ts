/**
 * The two responders: the secrets side answers in Vault's JSON envelope with `{"errors": [...]}` bodies,
 * the scheduler side in Nomad's PascalCase JSON with plain-text error bodies. Errors become statuses
 * here and nowhere else.
 */
import { SvcError } from '../../shared/errors.js';
import type { RawResponse, SecretsResponse } from './types.js';

const JSON_TYPE = { 'content-type': 'application/json' };

export function secretsOk(requestId: string, res: SecretsResponse | void): RawResponse {
  if (res?.raw !== undefined) return { status: res.status ?? 200, headers: { ...JSON_TYPE }, body: JSON.stringify(res.raw) };
  const warnings = res?.warnings && res.warnings.length > 0 ? res.warnings : null;
  if (!res || (res.data == null && !res.auth && !warnings && !res.status)) {
    return { status: 204, headers: {}, body: '' };
  }
  const body = {
    request_id: requestId,
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data: res.data ?? null,
    wrap_info: null,
    warnings,
    auth: res.auth ?? null,
  };
  return { status: res.status ?? 200, headers: { ...JSON_TYPE }, body: JSON.stringify(body) };
}

export function secretsError(status: number, messages: string[]): RawResponse {
  return { status, headers: { ...JSON_TYPE }, body: JSON.stringify({ errors: messages }) };
}

export function schedulerJson(body: unknown, status = 200, headers: Record<string, string> = {}): RawResponse {
  return { status, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

export function schedulerError(status: number, message: string): RawResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: message };
}

/** Status and user-facing message of any thrown value; unknown errors are 500s. */
export function classify(err: unknown): { status: number; message: string; internal: boolean } {
  if (err instanceof SvcError) return { status: err.statusCode, message: err.message, internal: err.statusCode >= 500 };
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, message: message || 'internal error', internal: true };
}
