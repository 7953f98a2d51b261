import { describe, expect, it } from 'vitest';
import {
  compareCreateIndexTokens,
  createIndexToken,
  paginate,
  validateHexPrefix,
} from '../../src/scheduler/http/paging.js';
import { compileFilter } from '../../src/scheduler/filter/index.js';
import { UserError } from '../../src/shared/errors.js';

interface Item {
  ID: string;
  CreateIndex: number;
  Status: string;
}

const ids = ['a', 'b', 'c', 'd', 'e'];
const items: Item[] = ids.map((ID, i) => ({ ID, CreateIndex: i + 1, Status: i % 2 === 0 ? 'running' : 'dead' }));
const byId = (item: Item): string => item.ID;
const idsOf = (page: Item[]): string[] => page.map((i) => i.ID);

describe('paginate', () => {
  it('returns everything and no token when per_page is 0', () => {
    const r = paginate(items, { perPage: 0, nextToken: '', tokenOf: byId });
    expect(idsOf(r.page)).toEqual(ids);
    expect(r.nextToken).toBeUndefined();
  });

  it('returns per_page items and the token of the first item of the next page', () => {
    const r = paginate(items, { perPage: 2, nextToken: '', tokenOf: byId });
    expect(idsOf(r.page)).toEqual(['a', 'b']);
    expect(r.nextToken).toBe('c');
  });

  it('starts at next_token inclusively', () => {
    const r = paginate(items, { perPage: 2, nextToken: 'c', tokenOf: byId });
    expect(idsOf(r.page)).toEqual(['c', 'd']);
    expect(r.nextToken).toBe('e');
  });

  it('walks every item exactly once by following the tokens', () => {
    const seen: string[] = [];
    let token = '';
    for (let guard = 0; guard < 10; guard++) {
      const r = paginate(items, { perPage: 2, nextToken: token, tokenOf: byId });
      seen.push(...idsOf(r.page));
      if (r.nextToken === undefined) break;
      token = r.nextToken;
    }
    expect(seen).toEqual(ids);
  });

  it('gives no token on the last page, even when it is exactly full', () => {
    const last = paginate(items, { perPage: 1, nextToken: 'e', tokenOf: byId });
    expect(idsOf(last.page)).toEqual(['e']);
    expect(last.nextToken).toBeUndefined();
    const whole = paginate(items, { perPage: 5, nextToken: '', tokenOf: byId });
    expect(whole.page).toHaveLength(5);
    expect(whole.nextToken).toBeUndefined();
  });

  it('skips by order, so a token for an item that no longer exists resumes at the next one', () => {
    const r = paginate(items, { perPage: 2, nextToken: 'bb', tokenOf: byId });
    expect(idsOf(r.page)).toEqual(['c', 'd']);
  });

  it('returns an empty page past the end', () => {
    const r = paginate(items, { perPage: 2, nextToken: 'z', tokenOf: byId });
    expect(r.page).toEqual([]);
    expect(r.nextToken).toBeUndefined();
  });

  it('applies the filter before counting, and the next token names a matching item', () => {
    const filter = compileFilter('Status == running');
    const first = paginate(items, { perPage: 1, nextToken: '', tokenOf: byId, filter });
    expect(idsOf(first.page)).toEqual(['a']);
    expect(first.nextToken).toBe('c');
    const second = paginate(items, { perPage: 1, nextToken: 'c', tokenOf: byId, filter });
    expect(idsOf(second.page)).toEqual(['c']);
    expect(second.nextToken).toBe('e');
    const third = paginate(items, { perPage: 1, nextToken: 'e', tokenOf: byId, filter });
    expect(idsOf(third.page)).toEqual(['e']);
    expect(third.nextToken).toBeUndefined();
  });

  it('gives no token when later items exist but none pass the filter', () => {
    const r = paginate(items, { perPage: 1, nextToken: 'd', tokenOf: byId, filter: (i) => i.ID === 'd' });
    expect(idsOf(r.page)).toEqual(['d']);
    expect(r.nextToken).toBeUndefined();
  });

  it('filters without paging when per_page is 0', () => {
    const r = paginate(items, { perPage: 0, nextToken: '', tokenOf: byId, filter: (i) => i.Status === 'dead' });
    expect(idsOf(r.page)).toEqual(['b', 'd']);
    expect(r.nextToken).toBeUndefined();
  });

  it('lets a filter error through as the UserError it is', () => {
    const filter = compileFilter('Status matches 1 or CreateIndex matches "x"');
    expect(() => paginate(items, { perPage: 0, nextToken: '', tokenOf: byId, filter })).toThrow(UserError);
  });

  it('orders tokens with the given comparison', () => {
    const indexed = [9, 10, 11].map((n) => ({ ID: `id${n}`, CreateIndex: n, Status: 'running' }));
    const tokenOf = (i: Item): string => createIndexToken(i.CreateIndex, i.ID);
    const numeric = paginate(indexed, { perPage: 5, nextToken: '10.id10', tokenOf, compareToken: compareCreateIndexTokens });
    expect(idsOf(numeric.page)).toEqual(['id10', 'id11']);
    // Plain string order puts "9.id9" after "10.id10", which is why the comparison matters.
    const stringy = paginate(indexed, { perPage: 5, nextToken: '10.id10', tokenOf });
    expect(idsOf(stringy.page)).toEqual(['id9', 'id10', 'id11']);
  });

  it('skips items after next_token in reverse order', () => {
    const reversed = [...items].reverse();
    const r = paginate(reversed, { perPage: 2, nextToken: 'c', tokenOf: byId, reverse: true });
    expect(idsOf(r.page)).toEqual(['c', 'b']);
    expect(r.nextToken).toBe('a');
  });

  it('rejects a negative or fractional per_page, naming it', () => {
    expect(() => paginate(items, { perPage: -1, nextToken: '', tokenOf: byId })).toThrow(/per_page/);
    expect(() => paginate(items, { perPage: 1.5, nextToken: '', tokenOf: byId })).toThrow(UserError);
  });
});

describe('create-index tokens', () => {
  it('are <CreateIndex>.<ID>', () => {
    expect(createIndexToken(42, '5d2a3b4c-0000-0000-0000-000000000000')).toBe('42.5d2a3b4c-0000-0000-0000-000000000000');
  });

  it('compare the index as a number, then the ID', () => {
    expect(compareCreateIndexTokens('9.b', '10.a')).toBeLessThan(0);
    expect(compareCreateIndexTokens('10.a', '9.b')).toBeGreaterThan(0);
    expect(compareCreateIndexTokens('10.a', '10.b')).toBeLessThan(0);
    expect(compareCreateIndexTokens('10.b', '10.a')).toBeGreaterThan(0);
    expect(compareCreateIndexTokens('10.a', '10.a')).toBe(0);
  });

  it('sort a list into table order', () => {
    const tokens = ['10.a', '2.z', '2.b', '100.a', '1.c'];
    expect([...tokens].sort(compareCreateIndexTokens)).toEqual(['1.c', '2.b', '2.z', '10.a', '100.a']);
  });

  it('accept a bare index, which sorts before every ID at that index', () => {
    expect(compareCreateIndexTokens('10', '10.a')).toBeLessThan(0);
    expect(compareCreateIndexTokens('10', '9.z')).toBeGreaterThan(0);
  });

  it('reject a token that does not start with an index, naming next_token', () => {
    expect(() => compareCreateIndexTokens('abc', '1.a')).toThrow(/next_token "abc"/);
    expect(() => compareCreateIndexTokens('1.a', '.x')).toThrow(UserError);
  });
});

describe('validateHexPrefix', () => {
  it('accepts an empty prefix and even runs of lower-case hex', () => {
    for (const ok of ['', 'ab', '5d2a', '0123456789abcdef', '5d2a3b4c-12']) {
      expect(() => validateHexPrefix(ok)).not.toThrow();
    }
  });

  it('rejects an odd number of hex characters, naming prefix', () => {
    for (const bad of ['a', '5d2', '5d2a3b4c-1']) {
      const err = (() => {
        try {
          validateHexPrefix(bad);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).statusCode).toBe(400);
      expect((err as UserError).message).toMatch(/^prefix ".*" must have an even number of hexadecimal characters/);
    }
  });

  it('rejects characters outside 0-9a-f', () => {
    expect(() => validateHexPrefix('zz')).toThrow(/prefix "zz" must contain only hexadecimal characters/);
    expect(() => validateHexPrefix('AB')).toThrow(/prefix/);
    expect(() => validateHexPrefix('web')).toThrow(/prefix/);
  });
});

describe('paginate on a long list', () => {
  const many: Item[] = Array.from({ length: 10_000 }, (_, i) => ({ ID: `id${i}`, CreateIndex: i + 1, Status: 'running' }));
  const tokenOf = (i: Item): string => createIndexToken(i.CreateIndex, i.ID);

  it('finds the start of a deep page by bisection rather than by reading every token', () => {
    let calls = 0;
    const counting = (i: Item): string => {
      calls++;
      return tokenOf(i);
    };
    const r = paginate(many, { perPage: 10, nextToken: '9001.id9000', tokenOf: counting, compareToken: compareCreateIndexTokens });
    expect(r.page.map((i) => i.CreateIndex)).toEqual([9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008, 9009, 9010]);
    expect(r.nextToken).toBe('9011.id9010');
    expect(calls).toBeLessThan(30);
  });

  it('reports a malformed create-index next_token even when there is nothing to list', () => {
    expect(() => paginate([], { perPage: 1, nextToken: 'zzz', tokenOf, compareToken: compareCreateIndexTokens })).toThrow(/next_token "zzz"/);
  });
});
