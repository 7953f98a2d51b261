import { describe, expect, it } from 'vitest';
import { FilterSyntaxError, parseFilter } from '../../../src/scheduler/filter/index.js';
import type { Expr, MatchExpr } from '../../../src/scheduler/filter/index.js';
import { UserError } from '../../../src/shared/errors.js';

function match(expr: Expr): MatchExpr {
  if (expr.type !== 'match') throw new Error(`expected a match expression, got ${expr.type}`);
  return expr;
}

function parseError(src: string): FilterSyntaxError {
  try {
    parseFilter(src);
  } catch (err) {
    if (err instanceof FilterSyntaxError) return err;
    throw err;
  }
  throw new Error(`${JSON.stringify(src)} parsed`);
}

describe('filter parser: precedence and structure', () => {
  it('binds and tighter than or', () => {
    const e = parseFilter('A == 1 or B == 2 and C == 3');
    expect(e.type).toBe('or');
    if (e.type !== 'or') return;
    expect(match(e.left).selector.path).toEqual(['A']);
    expect(e.right.type).toBe('and');
  });

  it('treats not as a prefix on the match that follows', () => {
    const e = parseFilter('not A == 1 and B == 2');
    expect(e.type).toBe('and');
    if (e.type !== 'and') return;
    expect(e.left.type).toBe('not');
  });

  it('cancels double negation', () => {
    expect(parseFilter('not not A == 1').type).toBe('match');
  });

  it('lets parentheses override precedence', () => {
    const e = parseFilter('(A == 1 or B == 2) and C == 3');
    expect(e.type).toBe('and');
  });

  it('accepts surrounding whitespace and an outer pair of parentheses', () => {
    expect(match(parseFilter('  ( A == 1 )\n')).value).toBe('1');
  });

  it('does not read a name starting with a keyword as the keyword', () => {
    expect(match(parseFilter('notes == 1')).selector.path).toEqual(['notes']);
    expect(match(parseFilter('anything == 1')).selector.path).toEqual(['anything']);
    const e = parseFilter('orders == 1 and android == 2');
    expect(e.type).toBe('and');
    if (e.type === 'and') expect(match(e.right).selector.path).toEqual(['android']);
  });
});

describe('filter parser: operators', () => {
  const cases: Array<[string, MatchExpr['op'], string | undefined]> = [
    ['A == x', '==', 'x'],
    ['A==x', '==', 'x'],
    ['A != x', '!=', 'x'],
    ['A contains x', 'in', 'x'],
    ['A not contains x', 'not in', 'x'],
    ['A matches "x"', 'matches', 'x'],
    ['A not matches "x"', 'not matches', 'x'],
    ['A is empty', 'is empty', undefined],
    ['A is not empty', 'is not empty', undefined],
    ['A is nil', 'is nil', undefined],
    ['A is not nil', 'is not nil', undefined],
    ['x in A', 'in', 'x'],
    ['x not in A', 'not in', 'x'],
  ];
  it.each(cases)('%s', (src, op, value) => {
    const m = match(parseFilter(src));
    expect(m.op).toBe(op);
    expect(m.selector.path).toEqual(['A']);
    expect(m.value).toBe(value);
  });

  it('needs blanks around word operators', () => {
    expect(parseError('A containsx').reason).toMatch(/no match found/);
    expect(parseError('x inA').reason).toMatch(/no match found/);
  });
});

describe('filter parser: selectors and values', () => {
  it('reads .ident, .digits and ["string"] segments', () => {
    expect(match(parseFilter('A.b.0["c d"].e == 1')).selector.path).toEqual(['A', 'b', '0', 'c d', 'e']);
    expect(match(parseFilter('A[ `raw.key` ] == 1')).selector.path).toEqual(['A', 'raw.key']);
  });

  it('allows / inside identifiers', () => {
    expect(match(parseFilter('Attributes.unique/hostname == h')).selector.path).toEqual(['Attributes', 'unique/hostname']);
  });

  it('reads the JSON-pointer form with ~0 and ~1 escapes', () => {
    const m = match(parseFilter('"/Meta/a~1b/c~0d" == 1'));
    expect(m.selector.form).toBe('pointer');
    expect(m.selector.path).toEqual(['Meta', 'a/b', 'c~d']);
  });

  it('reads numbers, negative numbers and decimals as their text', () => {
    expect(match(parseFilter('A == -12.5')).value).toBe('-12.5');
    expect(match(parseFilter('A == 0')).value).toBe('0');
  });

  it('reads bare words and dotted words as text', () => {
    expect(match(parseFilter('A == running')).value).toBe('running');
    expect(match(parseFilter('A == a.b')).value).toBe('a.b');
  });

  it('decodes escapes in double-quoted strings and leaves backtick strings raw', () => {
    expect(match(parseFilter('A == "a\\"b\\n\\t\\u00e9\\x41\\101"')).value).toBe('a"b\n\té' + 'AA');
    expect(match(parseFilter('A == `a\\nb`')).value).toBe('a\\nb');
  });
});

describe('filter parser: collection expressions', () => {
  it('reads each binding form', () => {
    const forms: Array<[string, unknown]> = [
      ['any L as x { x == 1 }', { mode: 'single', name: 'x' }],
      ['any L as i, x { x == 1 }', { mode: 'pair', index: 'i', value: 'x' }],
      ['any L as i, _ { i == 1 }', { mode: 'pair', index: 'i', value: undefined }],
      ['all L as _, x { x == 1 }', { mode: 'pair', index: undefined, value: 'x' }],
    ];
    for (const [src, binding] of forms) {
      const e = parseFilter(src);
      expect(e.type).toBe('collection');
      if (e.type === 'collection') expect(e.binding).toEqual(binding);
    }
  });

  it('may be combined with other expressions', () => {
    expect(parseFilter('any L as x { x == 1 } and B == 2').type).toBe('and');
    expect(parseFilter('not all L as x {x == 1}').type).toBe('not');
  });

  it('rejects bindings that are both _ or a single _', () => {
    expect(parseError('any L as _, _ { A == 1 }').reason).toMatch(/_/);
    expect(parseError('any L as _ { A == 1 }').reason).toMatch(/_/);
  });
});

describe('filter parser: errors', () => {
  it('is a UserError with the upstream prefix, the line:column and the offset', () => {
    const err = parseError('Status ==');
    expect(err).toBeInstanceOf(UserError);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/^failed to read filter expression: 1:10 \(9\): no match found/);
  });

  it('points at the furthest position reached', () => {
    const err = parseError('Status == running and');
    expect([err.line, err.column]).toEqual([1, 22]);
    expect(err.reason).toMatch(/expected: whitespace, found end of input/);
    const err2 = parseError('A == 1 and\n  B = 2');
    expect([err2.line, err2.column, err2.offset]).toEqual([2, 5, 15]);
    expect(err2.reason).toMatch(/"=="/);
  });

  it('reports an unmatched parenthesis at the opening one', () => {
    const err = parseError('A == 1 and (B == 2');
    expect(err.reason).toBe('Unmatched parentheses');
    expect(err.column).toBe(12);
  });

  it('reports invalid number literals', () => {
    expect(parseError('A == 12abc').reason).toBe('Invalid number literal');
  });

  it('reports unterminated strings', () => {
    expect(parseError('A == "abc').reason).toBe('Unterminated string literal');
    expect(parseError('A == `abc').reason).toBe('Unterminated string literal');
  });

  it('reports bad index expressions', () => {
    expect(parseError('A[1] == 2').reason).toBe('Invalid index');
    expect(parseError('A["x" == 2').reason).toBe('Unclosed index expression');
  });

  it('reports a missing selector after in', () => {
    expect(parseError('x in 5').reason).toBe('Invalid selector');
  });

  it('reports bad escapes and bad regular expressions', () => {
    expect(parseError('A == "\\q"').reason).toMatch(/invalid escape/);
    expect(parseError('A matches "("').reason).toMatch(/invalid regular expression/);
  });

  it('rejects trailing input and empty input', () => {
    expect(parseError('A == 1 B == 2').reason).toMatch(/no match found/);
    expect(parseError('').reason).toMatch(/no match found/);
    expect(parseError('A == 1 or').reason).toMatch(/no match found/);
  });
});

describe('filter parser: size', () => {
  it('turns stack exhaustion from a huge expression into a parse error', () => {
    const huge = Array.from({ length: 50_000 }, (_, i) => `A == ${i}`).join(' or ');
    expect(() => parseFilter(huge)).toThrow(/failed to read filter expression: 1:1 \(0\): expression is too long/);
  });

  it('parses a long but reasonable chain', () => {
    const long = Array.from({ length: 200 }, (_, i) => `A == ${i}`).join(' or ');
    expect(parseFilter(long).type).toBe('or');
  });
});
