import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../src/scheduler/filter/index.js';

// The dialect itself is tested in test/shared/re2.test.ts; these check that `matches` uses it.
describe('RE2 patterns in matches', () => {
  it('reads the pattern as RE2: flag groups, POSIX and Unicode classes', () => {
    expect(compileFilter('Name matches "(?i)^CACHE"')({ Name: 'cache-1' })).toBe(true);
    expect(compileFilter('Name matches "^[[:alpha:]]+-\\\\pN$"')({ Name: 'web-1' })).toBe(true);
    expect(compileFilter('Name not matches "a(?i)b"')({ Name: 'aB' })).toBe(false);
  });

  it('refuses what RE2 refuses, at the pattern', () => {
    expect(() => compileFilter('Name matches "(a)\\\\1"')).toThrow(
      'failed to read filter expression: 1:14 (13): invalid regular expression "(a)\\\\1": error parsing regexp: invalid escape sequence: `\\1` (RE2 has no backreferences)',
    );
    expect(() => compileFilter('Name matches "a(?=b)"')).toThrow(/invalid or unsupported Perl syntax: `\(\?=`/);
  });

  it('runs nested repetition in linear time, case-insensitive too', () => {
    const long = { Name: `${'a'.repeat(50_000)}!` };
    expect(compileFilter('Name matches "^(a+)+$"')(long)).toBe(false);
    expect(compileFilter('Name matches "(?i)^(A+)+$"')(long)).toBe(false);
    expect(compileFilter('Name matches "(?i)^(A+)+$"')({ Name: 'aAaA' })).toBe(true);
  });
});
