import type { AppliedChange, AppliedWrite } from './store.js';

interface Follower {
  tables: ReadonlySet<string>;
  listener: (write: AppliedWrite) => void;
  gap?: (index: number) => void;
}

/** A store's `follow` listeners: who hears which tables, and the handing out of each applied write. */
export class Followers {
  private readonly all = new Set<Follower>();
  /** every followed table, so that a store records changes only to those; empty while nobody follows */
  tables: ReadonlySet<string> = new Set();

  add(tables: ReadonlySet<string>, listener: (write: AppliedWrite) => void, gap?: (index: number) => void): () => void {
    const follower: Follower = { tables: new Set(tables), listener, gap };
    this.all.add(follower);
    this.tables = this.union();
    return () => {
      if (this.all.delete(follower)) this.tables = this.union();
    };
  }

  get active(): boolean {
    return this.all.size > 0;
  }

  /** Hands each follower the write's changes to its tables, when there are any. */
  emit(index: number, kind: string | undefined, changes: readonly AppliedChange[]): void {
    if (changes.length === 0) return;
    for (const f of this.all) {
      const mine = changes.every((c) => f.tables.has(c[0])) ? changes : changes.filter((c) => f.tables.has(c[0]));
      if (mine.length === 0) continue;
      try {
        f.listener({ index, kind, changes: mine });
      } catch {
        // The write is committed whatever a listener does with it; a listener's failure is its own.
      }
    }
  }

  /** Tells each follower that the writes up to `index` came as a whole snapshot, unheard. */
  gap(index: number): void {
    for (const f of this.all) {
      try {
        f.gap?.(index);
      } catch {
        // as for a write: a listener's failure is its own
      }
    }
  }

  private union(): ReadonlySet<string> {
    const out = new Set<string>();
    for (const f of this.all) for (const t of f.tables) out.add(t);
    return out;
  }
}
