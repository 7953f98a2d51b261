/** What one run of a check found, before the observer stamps it with the check's coordinates and time. */

export interface CheckOutcome {
  Status: 'success' | 'failure';
  /** http checks that got a response */
  StatusCode?: number;
  Output: string;
}

/** Nomad keeps at most 3 KiB of a check's output: one page with room for the other fields. */
export const OUTPUT_LIMIT = 3 * 1024;

/** Go's net.Dialer error text for a failed connection, which Nomad shows as the check's output. */
export function dialError(addr: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${addr}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${addr.replace(/:\d+$/, '')}: no such host`;
    case 'ECONNRESET':
      return `read tcp ${addr}: connection reset by peer`;
    default:
      return `dial tcp ${addr}: ${err.message}`;
  }
}
