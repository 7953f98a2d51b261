/**
 * The sys/ routes whose answer repeats `data`'s keys at the top level of the envelope, as Vault's HTTP
 * handler does for exactly these (code written against Vault reads `"token/" in resp`). A route ending in
 * '/' covers everything below it, as in Go's ServeMux; the others match only themselves.
 */
const ROUTES = [
  'sys/audit',
  'sys/audit/',
  'sys/audit-hash/',
  'sys/auth',
  'sys/auth/',
  'sys/capabilities',
  'sys/capabilities-accessor',
  'sys/capabilities-self',
  'sys/ha-status',
  'sys/mounts',
  'sys/mounts/',
  'sys/policy',
  'sys/policy/',
];

/** `rel`: the decoded path below /v1/, e.g. sys/auth/cloud/tune. */
export function dataAtTopLevel(rel: string): boolean {
  return rel.startsWith('sys/') && ROUTES.some((route) => (route.endsWith('/') ? rel.startsWith(route) : rel === route));
}
