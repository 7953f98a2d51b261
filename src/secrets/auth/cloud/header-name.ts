/** HTTP header names as the established implementation stores and compares them. */

/**
 * An HTTP header name in Go's canonical form (the form Vault stores and compares allowed_sts_header_values
 * in): first letter and every letter after '-' upper case, the rest lower case. undefined when `name` is
 * not a valid header name (RFC 9110 token), since such a header can never arrive.
 */
export function canonicalHeaderName(name: string): string | undefined {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return undefined;
  let upper = true;
  let out = '';
  for (const ch of name) {
    out += upper ? ch.toUpperCase() : ch.toLowerCase();
    upper = ch === '-';
  }
  return out;
}
