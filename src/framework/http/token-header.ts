import type { RawRequest } from './types.js';

/**
 * The caller's token: `X-Svc-Token`, or `Authorization: Bearer`, or the upstream header names that
 * existing clients send (`X-Vault-Token`, `X-Nomad-Token`).
 */
export function tokenFromHeaders(headers: RawRequest['headers']): string | undefined {
  for (const name of ['x-svc-token', 'x-vault-token', 'x-nomad-token']) {
    const v = headers[name];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    if (s) return s;
  }
  const auth = headers.authorization;
  const a = Array.isArray(auth) ? auth[0] : auth;
  const m = a ? /^bearer\s+(\S+)/i.exec(a.trim()) : null;
  return m ? m[1] : undefined;
}
