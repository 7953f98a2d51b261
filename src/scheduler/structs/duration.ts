/**
 * Durations in Nomad's JSON are int64 nanoseconds; job files produced by tools often carry Go duration
 * strings instead, and both mean the same value.
 */
import { formatGoDuration, parseGoDuration } from '../../shared/duration.js';

/** undefined when the text is not a duration; a bare integer string is already nanoseconds. */
export function parseDurationNs(text: string): number | undefined {
  return /^\s*[-+]?\d+\s*$/.test(text) ? Number(text) : parseGoDuration(text);
}

export const formatDurationNs = formatGoDuration;
