import { describe, expect, it } from 'vitest';
import { Re2SyntaxError, Re2TimeLimitError, compileRe2 } from '../../src/shared/re2/index.js';
import { UserError } from '../../src/shared/errors.js';

// Expected answers are Go's (regexp.MatchString / ReplaceAllString), which Nomad and Vault use.

describe('RE2 patterns match as in Go', () => {
  const rows: [pattern: string, input: string, matches: boolean][] = [
    // flags: leading, mid-pattern, scoped, cleared
    ['(?i)abc', 'xABCx', true],
    ['(?i)LINUX', 'linux', true],
    ['LINUX', 'linux', false],
    ['a(?i)b', 'aB', true],
    ['a(?i)b', 'AB', false],
    ['(?i:a)b', 'Ab', true],
    ['(?i:a)b', 'AB', false],
    ['(?i)a(?-i)b', 'Ab', true],
    ['(?i)a(?-i)b', 'AB', false],
    ['(x(?i)y)z', 'xYz', true],
    ['(x(?i)y)z', 'xYZ', false],
    ['(?s).', '\n', true],
    ['.', '\n', false],
    ['(?s:a.)b', 'a\nb', true],
    ['(?m)^b$', 'a\nb\nc', true],
    ['^b$', 'a\nb\nc', false],
    ['(?U)^a+$', 'aaa', true],
    // case folding follows Unicode simple folding, classes included
    ['(?i)k', '\u212A', true],
    ['(?i)s', '\u017F', true],
    ['(?i)σ', 'ς', true],
    ['(?i)[^k]', 'K', false],
    ['(?i)\\p{Lu}', 'a', true],
    ['(?i)i', '\u0130', false],
    // POSIX, Perl and Unicode classes
    ['[[:digit:]]+', 'abc123', true],
    ['^[[:digit:]]+$', 'a1', false],
    ['^[[:alpha:][:digit:]]+$', 'a1B2', true],
    ['^[[:^alpha:]]+$', '12', true],
    ['^[[:space:]]$', '\v', true],
    ['^\\s$', '\v', false],
    ['^\\s$', '\u00A0', false],
    ['^\\w+$', 'é', false],
    ['^\\d$', '٣', false],
    ['\\pL+', 'héllo', true],
    ['^\\pL+$', 'h3llo', false],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^\\P{Greek}$', 'α', false],
    ['^\\p{^Greek}$', 'a', true],
    ['^\\pN$', '٣', true],
    ['^\\p{Any}$', '😀', true],
    // quoting and escapes
    ['^\\Qa.b\\E$', 'a.b', true],
    ['^\\Qa.b\\E$', 'axb', false],
    ['^\\Qab\\E*$', 'abbb', true],
    ['^\\Qa.b', 'a.b', true],
    ['^\\123$', 'S', true],
    ['^\\0$', '\0', true],
    ['^\\x41\\x{10FFFF}$', 'A\u{10FFFF}', true],
    ['^\\x{1F600}$', '😀', true],
    ['^\\a\\f\\v$', '\x07\f\v', true],
    ['^a\\#b\\_c$', 'a#b_c', true],
    ['^[]a]+$', ']a]', true],
    ['^[^]a]+$', 'xyz', true],
    ['^a{,2}$', 'a{,2}', true],
    ['^a{2$', 'a{2', true],
    // anchors
    ['\\Aweb', 'web-1', true],
    ['\\Aweb', 'x-web', false],
    ['1\\z', 'web-1', true],
    ['1$', 'web-1\n', false],
    ['\\bweb\\b', 'a web b', true],
    ['\\Bweb', 'a web b', false],
    // code points, not UTF-16 units
    ['^.$', '😀', true],
    ['^..$', '😀', false],
    ['^[^a]$', '😀', true],
    ['^[😀-😂]+$', '😁😂', true],
    // named groups in both spellings
    ['^(?P<app>[a-z]+)-(?<n>[0-9]+)$', 'web-12', true],
    // counted repetition beyond what V8's engine replicates natively
    ['^[0-9a-f]{40}$', 'a'.repeat(40), true],
    ['^[0-9a-f]{40}$', 'a'.repeat(39), false],
    ['^(ab){2,30}$', 'ab'.repeat(30), true],
    ['^(ab){2,30}$', 'ab'.repeat(31), false],
    ['^(?:a{1,3}b){20}$', 'aab'.repeat(20), true],
    ['^((((((a+)+)+)+)+)+)$', 'aaa', true],
  ];
  it.each(rows)('%s on %j → %s', (pattern, input, matches) => {
    expect(compileRe2(pattern).test(input)).toBe(matches);
  });
});

describe('RE2 replacement as in Go (ReplaceAllString)', () => {
  const rows: [pattern: string, input: string, template: string, out: string][] = [
    ['(\\w+)@(\\w+)', 'joe@host and al@box', '$2:$1', 'host:joe and box:al'],
    ['(?P<user>\\w+)@', 'joe@x', '${user}!', 'joe!x'],
    ['(a)', 'a', '$1x|${1}x', '|ax'],
    ['a', 'aaa', '$$', '$$$'],
    ['a', 'a', '$', '$'],
    ['(?i)L', 'lol', '-', '-o-'],
    // an empty match right after a match is not replaced, and the search moves on by a code point
    ['a*', 'baaac', '-', '-b-c-'],
    ['x*', '😀', '-', '-😀-'],
    ['(?P<x>a)|(?P<x>b)', 'ab', '[$x]', '[a][b]'],
  ];
  it.each(rows)('%s on %j with %j → %j', (pattern, input, template, out) => {
    expect(compileRe2(pattern).replaceAll(input, template)).toBe(out);
  });
});

describe('what RE2 refuses, with Go messages', () => {
  const rows: [pattern: string, message: string][] = [
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1` (RE2 has no backreferences)'],
    ['a(?=b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=` (RE2 has no look-ahead)'],
    ['a(?!b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!` (RE2 has no look-ahead)'],
    ['(?<=a)b', 'error parsing regexp: invalid or unsupported Perl syntax: `(?<=` (RE2 has no look-behind)'],
    ['(?<!a)b', 'error parsing regexp: invalid or unsupported Perl syntax: `(?<!` (RE2 has no look-behind)'],
    ['(?>a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?>` (RE2 has no atomic groups)'],
    ['a*+', 'error parsing regexp: invalid nested repetition operator: `*+`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['(?P=n)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?P`'],
    ['(?i-)a', 'error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a|?', 'error parsing regexp: missing argument to repetition operator: `?`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['a{3,2}', 'error parsing regexp: invalid repeat count: `{3,2}`'],
    ['(a{500}){3}', 'error parsing regexp: invalid repeat count: `{3}`'],
    ['(abc', 'error parsing regexp: missing closing ): `(abc`'],
    ['abc)', 'error parsing regexp: unexpected ): `abc)`'],
    ['[abc', 'error parsing regexp: missing closing ]: `[abc`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['[[:foo:]]', 'error parsing regexp: invalid character class range: `[:foo:]`'],
    ['\\pX', 'error parsing regexp: invalid character class range: `\\pX`'],
    ['\\p{Letter}', 'error parsing regexp: invalid character class range: `\\p{Letter}`'],
    ['(?P<>a)', 'error parsing regexp: invalid named capture: `(?P<>`'],
    ['(?P<a-b>x)', 'error parsing regexp: invalid named capture: `(?P<a-b>`'],
    ['\\8', 'error parsing regexp: invalid escape sequence: `\\8`'],
    ['\\e', 'error parsing regexp: invalid escape sequence: `\\e`'],
    ['a\\Z', 'error parsing regexp: invalid escape sequence: `\\Z`'],
    ['\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
    ['[\\b]', 'error parsing regexp: invalid escape sequence: `\\b`'],
    ['\\x{110000}', 'error parsing regexp: invalid escape sequence: `\\x{110000`'],
    ['\\xg0', 'error parsing regexp: invalid escape sequence: `\\xg0`'],
    ['a\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
    ['(?m)^a\\z', 'error parsing regexp: (?m) line anchors cannot be combined with \\A, \\z, or ^ and $ outside (?m), in one pattern: `(?m)^a\\z`'],
  ];
  it.each(rows)('%s', (pattern, message) => {
    let error: unknown;
    try {
      compileRe2(pattern);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(Re2SyntaxError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(message);
  });
});

describe('matching time', () => {
  it('is linear: nested repetition over 50,000 characters answers', () => {
    const input = `${'a'.repeat(50_000)}!`;
    expect(compileRe2('(a+)+$').test(input)).toBe(false);
    expect(compileRe2('(?i)(A+)+$').test(input)).toBe(false);
    expect(compileRe2('^(a|aa)+$').test(input)).toBe(false);
    expect(compileRe2('(a+)+$').test('a'.repeat(50_000))).toBe(true);
    expect(compileRe2('(a|aa)+!').replaceAll(input, '-')).toBe('-');
  });

  it('is bounded where large Unicode classes make each character expensive', () => {
    // Seconds of work on this engine: every one of \pL's hundreds of ranges is tried at every position.
    const input = `${'a'.repeat(15)}1`.repeat(12_500);
    expect(() => compileRe2('\\pL{16}').test(input)).toThrow(Re2TimeLimitError);
    expect(compileRe2('\\pL{16}').test('a'.repeat(16))).toBe(true);
  });
});
