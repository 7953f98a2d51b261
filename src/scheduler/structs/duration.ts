/**
 * Go duration text → int64 nanoseconds. Nomad's JSON carries durations as nanosecond integers, and job
 * files produced by tools often carry Go duration strings instead; both mean the same value.
 */
const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** undefined when the text is not a duration; a bare integer string is already nanoseconds. */
export function parseDurationNs(text: string): number | undefined {
  let rest = text.trim();
  if (/^[-+]?\d+$/.test(rest)) return Number(rest);
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '') return undefined;
  let total = 0;
  let at = 0;
  while (at < rest.length) {
    PART.lastIndex = at;
    const m = PART.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_NS[m[2]];
    at = PART.lastIndex;
  }
  return sign * Math.round(total);
}

/** Nanoseconds → Go's text form (1h30m0s, 15s, 300ms), for messages that quote a duration as Nomad does. */
export function formatDurationNs(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${sign}${abs}ns`;
  if (abs < 1e6) return `${sign}${trim(abs / 1e3)}µs`;
  if (abs < 1e9) return `${sign}${trim(abs / 1e6)}ms`;
  const h = Math.floor(abs / 3600e9);
  const m = Math.floor((abs - h * 3600e9) / 60e9);
  const s = (abs - h * 3600e9 - m * 60e9) / 1e9;
  if (h > 0) return `${sign}${h}h${m}m${trim(s)}s`;
  if (m > 0) return `${sign}${m}m${trim(s)}s`;
  return `${sign}${trim(s)}s`;
}

function trim(n: number): string {
  return String(Number(n.toFixed(9)));
}
