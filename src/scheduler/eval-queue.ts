/**
 * The broker's queue in memory: evaluations that may run now in a heap by priority (highest first), then
 * age (lowest CreateIndex first), as Nomad's broker orders them; the others (a WaitUntil, a retry's
 * back-off) in a heap by the time they may run. Taking the next one costs O(log n), so a storm of n
 * evaluations drains in O(n log n).
 *
 * An evaluation offered again (queued again by a later write) replaces its older copy; copies replaced
 * this way are dropped when they reach the top of their heap.
 */
import { Heap } from '../shared/heap.js';
import type { PendingEntry } from './state/evals.js';

interface Item {
  entry: PendingEntry;
  /** Unix ms before which it must not run */
  notBefore: number;
}

const runsFirst = (a: Item, b: Item): boolean =>
  a.entry.priority !== b.entry.priority
    ? a.entry.priority > b.entry.priority
    : a.entry.createIndex !== b.entry.createIndex
      ? a.entry.createIndex < b.entry.createIndex
      : a.entry.id < b.entry.id;

export class EvalQueue {
  private readonly current = new Map<string, Item>();
  private readonly ready = new Heap<Item>(runsFirst);
  private readonly waiting = new Heap<Item>((a, b) => a.notBefore < b.notBefore);

  /** Evaluations queued and not yet taken. */
  get size(): number {
    return this.current.size;
  }

  /** How many queued evaluations may run at `now`, and how many wait (WaitUntil, a retry's back-off): a scrape's O(n) pass. */
  counts(now: number): { ready: number; waiting: number } {
    let ready = 0;
    for (const item of this.current.values()) if (item.notBefore <= now) ready++;
    return { ready, waiting: this.current.size - ready };
  }

  /**
   * Queues an entry unless the queue already holds it from the same or a later write. `notBefore` is
   * when it may run (at the earliest its WaitUntil).
   */
  offer(entry: PendingEntry, notBefore = entry.waitUntil): void {
    const held = this.current.get(entry.id);
    if (held && (held.entry.queuedIndex ?? 0) >= (entry.queuedIndex ?? 0)) return;
    const item: Item = { entry, notBefore: Math.max(notBefore, entry.waitUntil) };
    this.current.set(entry.id, item);
    this.waiting.push(item);
  }

  /** Takes the evaluation to run next, if one may run at `now`; otherwise says when one may. */
  take(now: number): { entry: PendingEntry } | { entry: undefined; wakeAt: number | undefined } {
    for (let top = this.waiting.peek(); top && top.notBefore <= now; top = this.waiting.peek()) {
      this.waiting.pop();
      if (this.current.get(top.entry.id) === top) this.ready.push(top);
    }
    for (let top = this.ready.pop(); top; top = this.ready.pop()) {
      if (this.current.get(top.entry.id) !== top) continue;
      this.current.delete(top.entry.id);
      return { entry: top.entry };
    }
    while (this.waiting.size > 0 && this.current.get(this.waiting.peek()!.entry.id) !== this.waiting.peek()) this.waiting.pop();
    return { entry: undefined, wakeAt: this.waiting.peek()?.notBefore };
  }
}
