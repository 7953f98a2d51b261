/** LruCache holds at most `max` entries; the least recently used one goes first. */
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/shared/lru-cache.js';

describe('LruCache', () => {
  it('past its bound, lets the least recently used entry go: a get counts as a use, and so does a set', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual([1, 3]);
    cache.set('a', 10);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([10, undefined, 4]);
  });

  it('deletes one entry, or every entry a predicate picks', () => {
    const cache = new LruCache<string, number>(10);
    for (const [k, v] of [['m1/x', 1], ['m1/y', 2], ['m2/x', 3]] as const) cache.set(k, v);
    cache.delete('m1/y');
    cache.deleteWhere((key) => key.startsWith('m1/'));
    expect([cache.get('m1/x'), cache.get('m1/y'), cache.get('m2/x')]).toEqual([undefined, undefined, 3]);
    expect(cache.size).toBe(1);
  });
});
