import type { Store, WriteTx } from '../storage/store.js';

/**
 * The store as the leader's work sees it: every write first runs `fence` in its transaction, which throws
 * once this server no longer leads, so nothing it writes as leader lands after another server took over.
 * Reads are the store's own.
 */
export function fencedStore(store: Store, fence: (tx: WriteTx) => void): Store {
  const guarded =
    <T>(fn: (tx: WriteTx) => T) =>
    (tx: WriteTx): T => {
      fence(tx);
      return fn(tx);
    };
  return {
    index: () => store.index(),
    tableIndex: (table) => store.tableIndex(table),
    get: (table, key) => store.get(table, key),
    list: (table, prefix, opts) => store.list(table, prefix, opts),
    keys: (table, prefix, opts) => store.keys(table, prefix, opts),
    write: (fn) => store.write(guarded(fn)),
    commit: (fn) => store.commit(guarded(fn)),
    waitForIndex: (after, timeoutMs, table) => store.waitForIndex(after, timeoutMs, table),
    waitForCommit: (after, timeoutMs, table) => store.waitForCommit(after, timeoutMs, table),
    follow: (tables, listener, gap) => store.follow(tables, listener, gap),
    // The leader's work ends before the server closes the store it shares with everything else.
    close: () => Promise.resolve(),
  };
}
