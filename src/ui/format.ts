/** How values read on the page. */

export const shortId = (id: string | undefined) => (id ?? '').slice(0, 8);

/** Unix nanoseconds (the scheduler's times) as local date and time. */
export function fromNanos(ns: number | undefined): string {
  if (!ns) return '';
  return new Date(ns / 1e6).toLocaleString();
}

export function ago(ns: number | undefined, now = Date.now()): string {
  if (!ns) return '';
  const s = Math.max(0, Math.round((now - ns / 1e6) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}
