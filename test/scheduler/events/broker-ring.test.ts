/**
 * The broker lets a write's built events go once no subscriber holds the write, and builds them again for
 * one that resumes from the ring: every subscriber gets the same frame, whether it read the write as it
 * came, after others had read it, after one was closed holding it, or long after.
 */
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../../src/storage/memory-store.js';
import { EventBroker, DEFAULT_BROKER_OPTIONS, type EventFilter, type Subscription } from '../../../src/scheduler/events/broker.js';
import { JOBS_TABLE } from '../../../src/scheduler/state/jobs.js';

const everyTopic: EventFilter = { topics: new Map([['*', ['*']]]), namespaces: undefined };
const jobsOnly: EventFilter = { topics: new Map([['Job', ['*']]]), namespaces: undefined };

async function frameOf(sub: Subscription): Promise<string> {
  const next = await sub.next(1000);
  if (!('frame' in next)) throw new Error(`no frame: ${JSON.stringify(next)}`);
  return next.frame;
}

describe('the event broker’s ring', () => {
  it('gives every subscriber the same frame, however late it reads the write', async () => {
    const store = await openMemoryStore({ migrations: [] });
    const broker = new EventBroker(store, DEFAULT_BROKER_OPTIONS);
    try {
      const first = broker.subscribe(everyTopic, 0);
      const second = broker.subscribe(jobsOnly, 0);
      const dropped = broker.subscribe(everyTopic, 0);
      await store.write((tx) => tx.put(JOBS_TABLE, 'default\u0000web', { ID: 'web', Namespace: 'default', Priority: 50 }));
      const frame = await frameOf(first);
      expect(JSON.parse(frame)).toMatchObject({ Index: store.index(), Events: [{ Topic: 'Job', Type: 'JobRegistered', Key: 'web', Payload: { Job: { ID: 'web', Priority: 50 } } }] });
      // Closed while holding the write: what it held is let go, and the others still read the write.
      dropped.close();
      expect(await frameOf(second)).toBe(frame);
      first.close();
      second.close();
      // No one holds the write now: a subscriber resuming from before it has its events built again.
      const late = broker.subscribe(everyTopic, 0);
      expect(await frameOf(late)).toBe(frame);
      const lateJobs = broker.subscribe(jobsOnly, store.index() - 1);
      expect(await frameOf(lateJobs)).toBe(frame);
      late.close();
      lateJobs.close();
    } finally {
      await broker.close();
      await store.close();
    }
  });
});
