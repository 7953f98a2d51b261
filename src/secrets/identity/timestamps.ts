/** Identity timestamps: unix nanoseconds kept as decimal strings (JS numbers cannot hold them exactly). */

let lastNs = 0n;

/**
 * Now in unix nanoseconds, never equal to the previous call's value in this process, so that an update
 * made in the same millisecond as the create still moves last_update_time forward.
 */
export function nowNs(): bigint {
  // The wall clock gives milliseconds; the monotonic clock fills in the digits below them.
  const ns = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  lastNs = ns > lastNs ? ns : lastNs + 1n;
  return lastNs;
}

/** A later timestamp than `previous` (written by any process), for last_update_time. */
export function laterThan(previous: string): string {
  const now = nowNs();
  const prev = BigInt(previous);
  return String(now > prev ? now : prev + 1n);
}

/** Go's time.RFC3339Nano in UTC, as Vault prints identity timestamps: trailing zeros of the fraction dropped. */
export function formatRfc3339Nano(ns: string): string {
  const big = BigInt(ns);
  const seconds = big / 1_000_000_000n;
  const fraction = (big % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}
