/**
 * The broker's in-memory queue: priority then age, WaitUntil and retry holds, an evaluation queued again
 * replacing its older copy, and a heap whose cost per operation is logarithmic (counted in comparisons,
 * not timed).
 */
import { describe, expect, it } from 'vitest';
import { EvalQueue } from '../../src/scheduler/eval-queue.js';
import type { PendingEntry } from '../../src/scheduler/state/evals.js';
import { Heap } from '../../src/shared/heap.js';

const entry = (id: string, priority: number, createIndex: number, extra: Partial<PendingEntry> = {}): PendingEntry => ({
  id,
  namespace: 'default',
  jobId: id,
  priority,
  createIndex,
  waitUntil: 0,
  queuedIndex: createIndex,
  ...extra,
});

function drain(q: EvalQueue, now: number): string[] {
  const out: string[] = [];
  for (let next = q.take(now); next.entry; next = q.take(now)) out.push(next.entry.id);
  return out;
}

describe('evaluation queue', () => {
  it('gives the highest priority first, then the oldest', () => {
    const q = new EvalQueue();
    q.offer(entry('low-old', 30, 1));
    q.offer(entry('high-new', 70, 9));
    q.offer(entry('mid', 50, 5));
    q.offer(entry('high-old', 70, 2));
    q.offer(entry('low-new', 30, 8));
    expect(drain(q, 0)).toEqual(['high-old', 'high-new', 'mid', 'low-old', 'low-new']);
    expect(q.size).toBe(0);
  });

  it('holds an evaluation until its WaitUntil or retry time, and says when to look again', () => {
    const q = new EvalQueue();
    q.offer(entry('delayed', 90, 1, { waitUntil: 1000 }));
    q.offer(entry('retry', 80, 2), 500);
    q.offer(entry('now', 10, 3));
    expect(drain(q, 0)).toEqual(['now']);
    expect(q.take(0)).toEqual({ entry: undefined, wakeAt: 500 });
    expect(drain(q, 500)).toEqual(['retry']);
    expect(q.take(999)).toEqual({ entry: undefined, wakeAt: 1000 });
    expect(drain(q, 1000)).toEqual(['delayed']);
    expect(q.take(1000)).toEqual({ entry: undefined, wakeAt: undefined });
  });

  it('replaces an evaluation queued again by a later write, and ignores the same entry read twice', () => {
    const q = new EvalQueue();
    q.offer(entry('a', 50, 1));
    q.offer(entry('b', 60, 2));
    q.offer(entry('a', 50, 1));
    // Queued again at index 7 with a higher priority (and read from the store after its first copy).
    q.offer(entry('a', 90, 1, { queuedIndex: 7 }));
    q.offer(entry('a', 50, 1));
    expect(q.size).toBe(2);
    expect(drain(q, 0)).toEqual(['a', 'b']);
  });

  it('takes back an evaluation offered again after it was taken (a retry)', () => {
    const q = new EvalQueue();
    const e = entry('again', 50, 1);
    q.offer(e);
    expect(drain(q, 0)).toEqual(['again']);
    q.offer(e, 100);
    expect(drain(q, 100)).toEqual(['again']);
  });
});

describe('heap', () => {
  it('pops in order with O(log n) comparisons per operation', () => {
    let comparisons = 0;
    const heap = new Heap<number>((a, b) => (comparisons++, a < b));
    const n = 20_000;
    // A fixed pseudo-random sequence, so every run compares the same.
    let seed = 42;
    const values = Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31));
    for (const v of values) heap.push(v);
    const popped: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) popped.push(v);
    expect(popped).toEqual([...values].sort((a, b) => a - b));
    expect(comparisons).toBeLessThanOrEqual(3 * n * Math.log2(n));
  });
});
