/**
 * Leader election on PostgreSQL, two contenders in one process on their own stores and sessions: one leads
 * at a time, the term grows at each change, and a leader whose lock session is cut loses the lead and can
 * no longer write as leader (the fence), even through a write it started before.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/storage/pg-store.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import { META_TABLE, type Store, type WriteTx } from '../../src/storage/store.js';
import { LOCK_SESSION_NAME, PgLeadership } from '../../src/cluster/pg-leadership.js';
import { NotLeader, readLeader } from '../../src/cluster/leadership.js';
import { fencedStore } from '../../src/cluster/fenced-store.js';
import { createLogger } from '../../src/shared/log.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { until as waitUntil } from '../support/wait.js';

let postgres: Postgres;

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.stop();
});

interface Contender {
  leadership: PgLeadership;
  store: Store;
  events: string[];
  /** the fenced store of its last term, kept after it stepped down */
  leaderStore?: Store;
}

async function contender(url: string, name: string): Promise<Contender> {
  const store = await openPgStore({ url, migrations: SCHEMA_MIGRATIONS });
  const leadership = new PgLeadership(url, store, { ID: `id-${name}`, Name: name, Address: `http://${name}.test:4646` }, createLogger('error', () => {}));
  const c: Contender = { leadership, store, events: [] };
  await leadership.start({
    onLead(fence: (tx: WriteTx) => void) {
      c.events.push('lead');
      c.leaderStore = fencedStore(store, fence);
    },
    onStepDown() {
      c.events.push('step down');
    },
  });
  return c;
}

const until = (what: string, ok: () => boolean): Promise<boolean> => waitUntil(async () => ok(), Boolean, what);

describe('PgLeadership', () => {
  it('one contender leads; cutting its lock session hands the lead to the other at the next term, and fences the old one', async () => {
    const url = await createDatabase(postgres.url, 'leadership_1');
    const a = await contender(url, 'a');
    await until('a to lead', () => a.leadership.isLeader());
    const b = await contender(url, 'b');
    try {
      expect(readLeader(a.store)).toMatchObject({ Term: 1, ID: 'id-a', Name: 'a', Address: 'http://a.test:4646' });
      await until('b to see the lock held', () => b.leadership.knownLeader());
      expect(b.leadership.isLeader()).toBe(false);
      expect(b.leadership.leader()?.ID).toBe('id-a');
      expect(a.leadership.lastContactMs()).toBe(0);
      // The leader's writes pass its fence.
      await a.leaderStore!.write((tx) => tx.put(META_TABLE, 'written-by', 'a'));

      // The database ends a's lock session (as after a partition): a steps down, b takes over.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [LOCK_SESSION_NAME]);
        const held = await admin.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted`);
        const leaderPid = held.rows[0].pid;
        expect(rows.map((r) => r.pid)).toContain(leaderPid);
        await admin.query('SELECT pg_terminate_backend($1)', [leaderPid]);
      } finally {
        await admin.end();
      }
      await until('a to step down', () => a.events.includes('step down'));
      expect(a.leadership.isLeader()).toBe(false);
      await until('b to lead', () => b.leadership.isLeader());
      expect(readLeader(b.store)).toMatchObject({ Term: 2, ID: 'id-b' });
      expect(b.events).toEqual(['lead']);

      // a's leader writes are refused now, and leave nothing behind.
      await expect(a.leaderStore!.write((tx) => tx.put(META_TABLE, 'written-by', 'a, late'))).rejects.toBeInstanceOf(NotLeader);
      await b.leaderStore!.write((tx) => tx.put(META_TABLE, 'written-by', 'b'));
      expect(b.store.get(META_TABLE, 'written-by')).toBe('b');

      // a competes again and follows b.
      await until('a to see b lead', () => a.leadership.knownLeader() && a.leadership.leader()?.ID === 'id-b');
      expect(a.events).toEqual(['lead', 'step down']);
    } finally {
      await b.leadership.stop();
      await a.leadership.stop();
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });

  it('fences by the term in the state: once the state names another leader, the old one cannot write, and steps down', async () => {
    const url = await createDatabase(postgres.url, 'leadership_3');
    const a = await contender(url, 'a');
    await until('a to lead', () => a.leadership.isLeader());
    try {
      // What a server that took over while this one did not know yet would have written.
      await a.store.write((tx) => tx.put(META_TABLE, 'leader', { Term: 7, ID: 'id-x', Name: 'x', Address: 'http://x.test:4646', Since: Date.now() }));
      expect(a.leadership.isLeader()).toBe(true);
      await expect(a.leaderStore!.write((tx) => tx.put(META_TABLE, 'written-by', 'a'))).rejects.toBeInstanceOf(NotLeader);
      expect(a.store.get(META_TABLE, 'written-by')).toBeUndefined();
      await until('a to step down', () => a.events.includes('step down'));
    } finally {
      await a.leadership.stop();
      await a.store.close();
    }
  });

  it('a leader that stops steps down and gives the lock back at once', async () => {
    const url = await createDatabase(postgres.url, 'leadership_2');
    const a = await contender(url, 'a');
    await until('a to lead', () => a.leadership.isLeader());
    const b = await contender(url, 'b');
    try {
      await a.leadership.stop();
      expect(a.events).toEqual(['lead', 'step down']);
      await until('b to lead', () => b.leadership.isLeader());
      expect(readLeader(b.store)?.Term).toBe(2);
      // A write a's work started as leader no longer passes once it stopped.
      await expect(a.leaderStore!.write(() => undefined)).rejects.toBeInstanceOf(NotLeader);
    } finally {
      await b.leadership.stop();
      await Promise.all([a.store.close(), b.store.close()]);
    }
  });
});
