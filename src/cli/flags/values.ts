/**
 * A flag's text → its value, checked against the declaration: the one place flag values are validated,
 * for values typed on the command line and values read from the environment alike. `where` names the
 * source in the error (`-ttl`, `-format (from SVC_FORMAT)`), as the user wrote it.
 */
import type { FlagSpec } from '../define.js';
import { UsageError } from '../../shared/errors.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { parseGoBool } from '../../shared/go-bool.js';

/** A non-bool flag's value: ints become numbers, durations stay as typed (once checked). */
export function flagValue(spec: FlagSpec, text: string, where: string): string | number {
  const invalid = (why: string) => new UsageError(`invalid value "${text}" for ${where}: ${why}`);
  let value: string | number = text;
  if (spec.type === 'int') {
    if (!/^[+-]?\d+$/.test(text.trim())) throw invalid('not an integer');
    value = Number(text.trim());
    if (!Number.isSafeInteger(value)) throw invalid('out of range');
  } else if (spec.type === 'duration') {
    const seconds = parseDurationSeconds(text);
    if (seconds === undefined) throw invalid('not a duration (give seconds, or a duration such as 30s, 10m, 1h30m, 72h)');
    if (seconds < 0) throw invalid('a duration may not be negative');
  }
  if (spec.choices && !spec.choices.includes(text)) throw invalid(`must be one of ${spec.choices.join(', ')}`);
  const problem = spec.check?.(text);
  if (problem) throw invalid(problem);
  return value;
}

/** A bool flag's value, in Go's strconv.ParseBool words. */
export function boolValue(text: string, where: string): boolean {
  const value = parseGoBool(text);
  if (value === undefined) throw new UsageError(`invalid boolean value "${text}" for ${where}`);
  return value;
}

/** The value of the environment variable `variable` for a flag; a `strings` flag's is a comma-separated list. */
export function envValue(spec: FlagSpec, text: string, variable = spec.env): string | number | boolean | string[] {
  const where = `-${spec.name} (from ${variable})`;
  if (spec.type === 'bool') return boolValue(text, where);
  if (spec.type !== 'strings') return flagValue(spec, text, where);
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (flagValue(spec, s, where), s));
}
