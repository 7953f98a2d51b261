import { MemoryTables } from './memory-tables.js';
import type { LogEntry } from './pending-writes.js';
import { Followers } from './followers.js';

/** The replica as of one index: what a new process loads, and what a process too far behind the log reloads. */
export interface Snapshot {
  tables: MemoryTables;
  index: number;
  tableIndexes: Map<string, number>;
}

/**
 * This process's copy of the whole store, as of `index`: what every read answers. It only moves forward,
 * one log entry at a time in index order, or to a whole newer snapshot. Entries it already has are
 * skipped: a commit of this process reaches it both directly and through the log.
 */
export class Replica {
  private state: Snapshot = { tables: new MemoryTables(), index: 0, tableIndexes: new Map() };
  /** who hears each entry the replica takes (Store.follow): this process's commits and every other's */
  readonly followers = new Followers();

  /** `advanced` hears of every index the replica reaches, with the tables whose index moved. */
  constructor(private readonly advanced: (index: number, tables: ReadonlySet<string>) => void) {}

  get index(): number {
    return this.state.index;
  }

  get tables(): MemoryTables {
    return this.state.tables;
  }

  tableIndex(table: string): number {
    return this.state.tableIndexes.get(table) ?? 0;
  }

  /** Everything, as of now: the replica's own state, which it goes on changing with later entries. */
  snapshot(): Snapshot {
    return this.state;
  }

  apply(entry: LogEntry): void {
    const state = this.state;
    if (entry.index <= state.index) return;
    if (entry.index !== state.index + 1) throw new Error(`store replica at index ${state.index} was given log entry ${entry.index}`);
    state.tables.apply(entry.changes);
    for (const table of entry.tables) state.tableIndexes.set(table, entry.index);
    state.index = entry.index;
    this.advanced(entry.index, new Set(entry.tables));
    this.followers.emit(entry.index, entry.kind, entry.changes);
  }

  /** Takes `snapshot` in place of everything, when it is newer. */
  replace(snapshot: Snapshot): void {
    if (snapshot.index <= this.state.index) return;
    const moved = new Set<string>();
    for (const [table, index] of snapshot.tableIndexes) if (index !== this.state.tableIndexes.get(table)) moved.add(table);
    this.state = snapshot;
    this.advanced(snapshot.index, moved);
    this.followers.gap(snapshot.index);
  }
}
