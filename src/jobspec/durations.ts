/**
 * Go duration text ("10s", "1h30m", "1.5h", "300ms") to int64 nanoseconds, the unit of every duration
 * field in Nomad's JSON. Unlike src/shared/duration.ts (Vault's seconds), a bare number here is already
 * nanoseconds, as jobspec2 treats it, and there is no "d" unit because Go has none.
 */
const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Returns undefined when the text is not a Go duration. */
export function parseGoDurationNs(text: string): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let m = PART.exec(rest); m; m = PART.exec(rest)) {
    total += Number(m[1]) * UNIT_NS[m[2]];
    consumed = PART.lastIndex;
  }
  if (consumed !== rest.length) return undefined;
  return sign * Math.round(total);
}
