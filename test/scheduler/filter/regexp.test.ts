import { describe, expect, it } from 'vitest';
import { compileFilter, compileRe2 } from '../../../src/scheduler/filter/index.js';

describe('RE2 patterns in matches', () => {
  it('turns leading flag groups into RegExp flags', () => {
    expect(compileRe2('(?i)^WEB').test('web-1')).toBe(true);
    expect(compileRe2('^WEB').test('web-1')).toBe(false);
    expect(compileRe2('(?s)a.b').test('a\nb')).toBe(true);
    expect(compileRe2('a.b').test('a\nb')).toBe(false);
    expect(compileRe2('(?im)^b$').test('a\nB')).toBe(true);
  });

  it('rejects flags JavaScript cannot express', () => {
    expect(() => compileRe2('(?U)a+')).toThrow(/\(\?U\)/);
    expect(() => compileRe2('a(?i)b')).toThrow(/unsupported/);
  });

  it('accepts (?P<name>…) named groups', () => {
    expect(compileRe2('^(?P<app>[a-z]+)-[0-9]+$').exec('web-12')?.groups?.app).toBe('web');
  });

  it('anchors \\A and \\z at the ends of the text', () => {
    expect(compileRe2('\\Aweb').test('web-1')).toBe(true);
    expect(compileRe2('\\Aweb').test('x-web')).toBe(false);
    expect(compileRe2('1\\z').test('web-1')).toBe(true);
    expect(compileRe2('(?m)1\\z').test('web-1\nx')).toBe(false);
  });

  it('translates POSIX classes and Unicode classes', () => {
    expect(compileRe2('^[[:alpha:]]+$').test('abcXYZ')).toBe(true);
    expect(compileRe2('^[[:alpha:]]+$').test('abc1')).toBe(false);
    expect(compileRe2('^[[:digit:][:lower:]]+$').test('a1b2')).toBe(true);
    expect(compileRe2('^\\pL+$').test('héllo')).toBe(true);
    expect(compileRe2('^\\pL+$').test('h3llo')).toBe(false);
    expect(compileRe2('^\\p{Greek}+$').test('αβγ')).toBe(true);
    expect(compileRe2('^\\pL\\-\\pN$').test('a-1')).toBe(true);
    expect(() => compileRe2('[[:nope:]]')).toThrow(/nope/);
  });

  it('quotes \\Q…\\E literally', () => {
    expect(compileRe2('^\\Qa.b*\\E$').test('a.b*')).toBe(true);
    expect(compileRe2('^\\Qa.b*\\E$').test('axbb')).toBe(false);
  });

  it('treats ] right after [ as a literal', () => {
    expect(compileRe2('^[]a]+$').test(']a]')).toBe(true);
    expect(compileRe2('^[^]a]+$').test('xyz')).toBe(true);
  });

  it('rejects backreferences and look-around, which RE2 does not have', () => {
    expect(() => compileRe2('(a)\\1')).toThrow(/backreferences/);
    expect(() => compileRe2('a(?=b)')).toThrow(/unsupported/);
    expect(() => compileRe2('(?<!a)b')).toThrow(/unsupported/);
  });

  it('surfaces these rules through filters', () => {
    expect(compileFilter('Name matches "(?i)^CACHE"')({ Name: 'cache-1' })).toBe(true);
    expect(() => compileFilter('Name matches "(a)\\\\1"')).toThrow(/failed to read filter expression: 1:14 \(13\): invalid regular expression/);
  });
});

describe('RE2 escapes', () => {
  it('reads \\a as the bell character and \\x{…} as a code point', () => {
    expect(compileRe2('^\\a$').test('\x07')).toBe(true);
    expect(compileRe2('^\\x{e9}$').test('é')).toBe(true);
    expect(compileRe2('^\\x{1F600}$').test('😀')).toBe(true);
  });

  it('rejects letter escapes RE2 does not know instead of reading them as the letter', () => {
    expect(() => compileRe2('\\e')).toThrow(/invalid escape/);
    expect(() => compileRe2('a\\Z')).toThrow(/invalid escape/);
    expect(() => compileRe2('\\C')).toThrow(/invalid escape/);
  });

  it('keeps the common escapes', () => {
    expect(compileRe2('^\\d+\\s\\w+\\.$').test('12 ab.')).toBe(true);
    expect(compileRe2('\\bweb\\b').test('a web b')).toBe(true);
    expect(compileRe2('^a\\#b$').test('a#b')).toBe(true);
  });
});

describe('regular expressions cannot hold the server', () => {
  it('runs nested repetition in linear time', () => {
    const match = compileFilter('Name matches "^(a+)+$"');
    // On a backtracking engine this input takes minutes; RE2 semantics answer at once.
    expect(match({ Name: `${'a'.repeat(40)}!` })).toBe(false);
    expect(match({ Name: 'aaaa' })).toBe(true);
  });

  it('bounds the time of a pattern the linear engine does not take (case-insensitive)', () => {
    const match = compileFilter('Name matches "(?i)^(a+)+$"');
    expect(match({ Name: 'AaAa' })).toBe(true);
    expect(() => match({ Name: `${'a'.repeat(40)}!` })).toThrow(/took too long/);
  });
});
