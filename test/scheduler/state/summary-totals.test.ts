/**
 * The job summaries' totals the nomad.nomad.job_summary.* gauges read: listed once when first read, then
 * kept from the store's writes (a job's new summary replaces what it counted, a deleted one leaves), and
 * listed again after the store skipped writes by loading a snapshot. Each figure is checked against a
 * fresh listing of the same store.
 */
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../../src/storage/memory-store.js';
import { MemoryTables } from '../../../src/storage/memory-tables.js';
import type { Replica } from '../../../src/storage/replica.js';
import type { Store } from '../../../src/storage/store.js';
import { JOB_SUMMARIES, emptyGroupSummary, type GroupSummary } from '../../../src/scheduler/state/allocs.js';
import { SummaryTotals } from '../../../src/scheduler/state/summary-totals.js';

const summary = (job: string, groups: Record<string, Partial<GroupSummary>>) => ({
  summary: { JobID: job, Namespace: 'default', Summary: Object.fromEntries(Object.entries(groups).map(([g, c]) => [g, { ...emptyGroupSummary(), ...c }])), Children: { Pending: 0, Running: 0, Dead: 0 }, CreateIndex: 1, ModifyIndex: 1 },
  live: 0,
});

const put = (store: Store, job: string, groups: Record<string, Partial<GroupSummary>>) => store.write((tx) => tx.put(JOB_SUMMARIES, `default\u0000${job}`, summary(job, groups)));

describe('the job summaries’ totals', () => {
  it('follow every write after the first read, as a fresh listing sums them', async () => {
    const store = await openMemoryStore({ migrations: [] });
    const totals = new SummaryTotals(store);
    const listed = () => {
      const fresh = new SummaryTotals(store);
      try {
        return fresh.read();
      } finally {
        fresh.close();
      }
    };
    try {
      await put(store, 'a', { web: { Running: 2, Queued: 1 }, db: { Running: 1 } });
      expect(totals.read()).toMatchObject({ Running: 3, Queued: 1, Failed: 0 });

      await put(store, 'b', { web: { Starting: 4 } });
      expect(totals.read()).toMatchObject({ Running: 3, Queued: 1, Starting: 4 });
      // a's new summary replaces what it counted: its queued allocation started, one ran and failed
      await put(store, 'a', { web: { Running: 3 }, db: { Failed: 1 } });
      expect(totals.read()).toMatchObject({ Running: 3, Queued: 0, Starting: 4, Failed: 1 });
      await store.write((tx) => tx.delete(JOB_SUMMARIES, 'default\u0000b'));
      expect(totals.read()).toMatchObject({ Running: 3, Queued: 0, Starting: 0, Failed: 1 });
      await store.write((tx) => {
        tx.put(JOB_SUMMARIES, 'default\u0000c', summary('c', { g: { Lost: 2 } }));
        tx.put(JOB_SUMMARIES, 'default\u0000c', summary('c', { g: { Lost: 1, Complete: 5 } }));
      });
      expect(totals.read()).toEqual(listed());
      expect(totals.read()).toMatchObject({ Running: 3, Failed: 1, Lost: 1, Complete: 5 });

      // What the PostgreSQL store does when the log it needs was compacted away: the state is another's.
      const replica = (store as unknown as { replica: Replica }).replica;
      const tables = new MemoryTables();
      tables.set(JOB_SUMMARIES, 'default\u0000z', JSON.stringify(summary('z', { g: { Unknown: 7 } })));
      replica.replace({ tables, index: store.index() + 10, tableIndexes: new Map() });
      expect(totals.read()).toEqual({ Queued: 0, Starting: 0, Running: 0, Complete: 0, Failed: 0, Lost: 0, Unknown: 7 });
    } finally {
      totals.close();
      await store.close();
    }
  });

  it('are listed anew when read after being closed', async () => {
    const store = await openMemoryStore({ migrations: [] });
    const totals = new SummaryTotals(store);
    try {
      await put(store, 'a', { web: { Running: 2 } });
      expect(totals.read().Running).toBe(2);
      totals.close();
      await put(store, 'b', { web: { Running: 5 } });
      // closed, then read again: listed anew, so nothing heard while closed is missing
      expect(totals.read().Running).toBe(7);
    } finally {
      totals.close();
      await store.close();
    }
  });
});
