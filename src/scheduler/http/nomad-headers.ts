/**
 * The query-meta headers under both prefixes: Nomad's own client reads only `X-Nomad-Index`,
 * `-KnownLeader`, `-LastContact` and `-NextToken` (without them it sees every index as 0, so its blocking
 * queries return at once and its paging stops after the first page), while svc's spell them `X-Svc-`.
 */
const QUERY_META = ['index', 'knownleader', 'lastcontact', 'nexttoken'] as const;

/** `headers` with an `x-nomad-` twin beside each `x-svc-` query-meta header, equal to it. */
export function withNomadTwins(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const name of QUERY_META) {
    const value = headers[`x-svc-${name}`];
    if (value !== undefined) out[`x-nomad-${name}`] = value;
  }
  return out;
}
