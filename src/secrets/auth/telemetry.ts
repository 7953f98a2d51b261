/**
 * Logins, as Vault's vault.core.handle_login_request times them, by auth method, login type and result:
 * `success` (a token issued), `denied` (the caller's fault: a bad signature, a role that does not admit
 * it, a 4xx) or `error` (the server's: a 5xx).
 */
import { Histogram, type HistogramCell } from '../../shared/metrics/registry.js';

export type LoginResult = 'success' | 'denied' | 'error';

const logins = new Histogram('vault.core.handle_login_request', 'Logins by auth method, login type and result, and how long each took, in ms.', ['auth_method', 'login_type', 'result']);

const cells = new Map<string, HistogramCell>();

/** Times a login that began at `started` (performance.now()). */
export function loginDone(method: string, type: string, result: LoginResult, started: number): void {
  const key = `${method}\u0000${type}\u0000${result}`;
  let cell = cells.get(key);
  if (!cell) cells.set(key, (cell = logins.child(method, type, result)));
  cell.since(started);
}
