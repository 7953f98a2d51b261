/**
 * Durations as both upstreams accept them: a number of seconds (number or numeric string), or a Go
 * duration string ("72h", "1h30m", "10s", "500ms", "1.5h"), plus the "d" (day) unit that Vault accepts.
 */
const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
};

const PART = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/gy;

/** Parses a duration to seconds (fractions kept). Returns undefined when the text is not a duration. */
export function parseDurationSeconds(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined;
  const text = input.trim();
  if (text === '') return undefined;
  if (/^-?\d+$/.test(text)) return Number(text);
  let sign = 1;
  let rest = text;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let m = PART.exec(rest); m; m = PART.exec(rest)) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    consumed = PART.lastIndex;
  }
  if (consumed !== rest.length || consumed === 0) return undefined;
  return sign * total;
}

/**
 * Seconds → Go's Duration.String() text (0s, 45s, 30m0s, 1h30m0s, 768h0m0s), as the upstream servers put
 * durations in their messages. The CLI's tables use the shorter `formatDuration` of output/format.ts.
 */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(Math.trunc(seconds));
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}
