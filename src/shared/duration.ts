/**
 * Durations, parsed and printed once for the whole product. Go's duration syntax ("72h", "1h30m",
 * "1.5h", "500ms") underlies both upstreams: Vault reads a bare number as seconds and also accepts a
 * "d" (day) unit; Nomad's JSON carries int64 nanoseconds.
 */
const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9, d: 86_400e9 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d)/y;

function parseParts(text: string, allowDays: boolean): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  let at = 0;
  while (at < rest.length) {
    PART.lastIndex = at;
    const m = PART.exec(rest);
    if (!m || (m[2] === 'd' && !allowDays)) return undefined;
    total += Number(m[1]) * UNIT_NS[m[2]];
    at = PART.lastIndex;
  }
  return sign * total;
}

/** Go duration text → nanoseconds (rounded); undefined when the text is not a Go duration. */
export function parseGoDuration(text: string): number | undefined {
  const ns = parseParts(text, false);
  return ns === undefined ? undefined : Math.round(ns);
}

/** Vault's reading: a number (or numeric string) of seconds, or a duration string with "d" allowed. */
export function parseDurationSeconds(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined;
  if (/^\s*-?\d+\s*$/.test(input)) return Number(input);
  const ns = parseParts(input, true);
  return ns === undefined ? undefined : ns / 1e9;
}

/** Nanoseconds → Go's Duration.String() text (0s, 300ms, 45s, 30m0s, 1h30m0s), as upstream messages quote them. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${sign}${abs}ns`;
  if (abs < 1e6) return `${sign}${trimNumber(abs / 1e3)}µs`;
  if (abs < 1e9) return `${sign}${trimNumber(abs / 1e6)}ms`;
  const h = Math.floor(abs / 3600e9);
  const m = Math.floor((abs - h * 3600e9) / 60e9);
  const s = (abs - h * 3600e9 - m * 60e9) / 1e9;
  if (h > 0) return `${sign}${h}h${m}m${trimNumber(s)}s`;
  if (m > 0) return `${sign}${m}m${trimNumber(s)}s`;
  return `${sign}${trimNumber(s)}s`;
}

/**
 * Whole seconds → Go's Duration.String() text. The CLI's tables use the shorter Vault-style
 * `formatDuration` of output/format.ts.
 */
export function formatDuration(seconds: number): string {
  return formatGoDuration(Math.trunc(seconds) * 1e9);
}

function trimNumber(n: number): string {
  return String(Number(n.toFixed(9)));
}
