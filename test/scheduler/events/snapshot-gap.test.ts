/**
 * A store that loads a whole newer snapshot (a PostgreSQL process too far behind the log) skips the writes
 * in between: its followers are told, and the event stream cuts its subscribers off as fallen behind
 * rather than go on as if nothing were missing, and keeps nothing from before the gap for resuming.
 */
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../../src/storage/memory-store.js';
import { MemoryTables } from '../../../src/storage/memory-tables.js';
import type { Replica } from '../../../src/storage/replica.js';
import { EventBroker, DEFAULT_BROKER_OPTIONS } from '../../../src/scheduler/events/broker.js';
import { JOBS_TABLE } from '../../../src/scheduler/state/jobs.js';

describe('a snapshot load under the event stream', () => {
  it('tells the followers, cuts the subscribers off, and empties the ring', async () => {
    const store = await openMemoryStore({ migrations: [] });
    const gaps: number[] = [];
    const stop = store.follow(new Set([JOBS_TABLE]), () => undefined, (index) => gaps.push(index));
    const broker = new EventBroker(store, DEFAULT_BROKER_OPTIONS);
    try {
      await store.write((tx) => tx.put(JOBS_TABLE, 'default\u0000web', { ID: 'web', Namespace: 'default' }));
      expect(broker.oldest).toBeGreaterThan(0);
      const sub = broker.subscribe({ topics: new Map([['Job', ['*']]]), namespaces: undefined }, 0);
      expect(await sub.next(1000)).toHaveProperty('frame');
      // What the PostgreSQL store does when the log it needs was compacted away.
      const replica = (store as unknown as { replica: Replica }).replica;
      replica.replace({ tables: new MemoryTables(), index: store.index() + 10, tableIndexes: new Map() });
      expect(gaps).toEqual([store.index()]);
      expect(await sub.next(1000)).toEqual({ ended: 'behind' });
      expect(broker.oldest).toBe(0);
      expect(broker.subscriberCount).toBe(0);
    } finally {
      stop();
      broker.close();
      await store.close();
    }
  });
});
