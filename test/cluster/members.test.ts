/**
 * The cluster's member list on a real store: a record per server, alive while it beats within three
 * heartbeats, failed after, no longer listed (and deleted by the next heartbeat) a day after it failed,
 * removed when its server stops; listed by name, then ID.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FAILED_AFTER_MS,
  joinCluster,
  listMembers,
  MEMBERS_TABLE,
  REAP_AFTER_MS,
  startMemberHeartbeat,
  type MemberRecord,
} from '../../src/cluster/members.js';
import type { ServerIdentity } from '../../src/cluster/leadership.js';
import { TestStore } from '../scheduler/state/support.js';
import { until } from '../support/wait.js';

const T0 = Date.UTC(2030, 0, 1);
const server = (id: string, name = `host-${id}`, address = `http://10.0.0.${id.length}:4646`): ServerIdentity => ({ ID: id, Name: name, Address: address });

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const record = (id: string) => t.store.get<MemberRecord>(MEMBERS_TABLE, id);

describe('joinCluster and listMembers', () => {
  it('a joined server is listed with its record, started and last seen now, alive', async () => {
    await joinCluster(t.store, server('a', 'alpha', 'https://alpha:4646'), '1.2.3', T0);
    expect(listMembers(t.store, T0)).toEqual([{ ID: 'a', Name: 'alpha', Address: 'https://alpha:4646', Version: '1.2.3', StartedAt: T0, LastSeen: T0, Status: 'alive' }]);
  });

  it('a server joining again (a restart keeps its ID) overwrites its record: it started again', async () => {
    await joinCluster(t.store, server('a'), '1.0.0', T0);
    await joinCluster(t.store, server('a', 'renamed'), '1.1.0', T0 + 60_000);
    expect(listMembers(t.store, T0 + 60_000)).toEqual([expect.objectContaining({ ID: 'a', Name: 'renamed', Version: '1.1.0', StartedAt: T0 + 60_000, LastSeen: T0 + 60_000 })]);
  });

  it('is alive while last seen within three heartbeats (15 s), failed after', async () => {
    expect(FAILED_AFTER_MS).toBe(15_000);
    await joinCluster(t.store, server('a'), '1.0.0', T0);
    expect(listMembers(t.store, T0 + FAILED_AFTER_MS)[0].Status).toBe('alive');
    expect(listMembers(t.store, T0 + FAILED_AFTER_MS + 1)[0].Status).toBe('failed');
  });

  it('a member failed for more than 24 hours is no longer listed', async () => {
    await joinCluster(t.store, server('a'), '1.0.0', T0);
    const failedSince = T0 + FAILED_AFTER_MS;
    expect(listMembers(t.store, failedSince + REAP_AFTER_MS)).toEqual([expect.objectContaining({ ID: 'a', Status: 'failed' })]);
    expect(listMembers(t.store, failedSince + REAP_AFTER_MS + 1)).toEqual([]);
  });

  it('lists by name, then by ID', async () => {
    await joinCluster(t.store, server('3', 'beta'), '1.0.0', T0);
    await joinCluster(t.store, server('2', 'alpha'), '1.0.0', T0);
    await joinCluster(t.store, server('1', 'alpha'), '1.0.0', T0);
    await joinCluster(t.store, server('0', 'Zeta'), '1.0.0', T0);
    expect(listMembers(t.store, T0).map((m) => `${m.Name}/${m.ID}`)).toEqual(['Zeta/0', 'alpha/1', 'alpha/2', 'beta/3']);
  });
});

describe('startMemberHeartbeat', () => {
  it('rewrites LastSeen, keeps StartedAt, and takes up a changed address', async () => {
    const self = server('a', 'alpha', '');
    const joined = Date.now() - 60_000;
    await joinCluster(t.store, self, '1.0.0', joined);
    const beat = startMemberHeartbeat(t.store, self, '1.0.0', 10);
    try {
      self.Address = 'http://10.0.0.9:4646';
      const seen = await until(async () => record('a')!, (r) => r.LastSeen > joined && r.Address === self.Address, 'a heartbeat');
      expect(seen.StartedAt).toBe(joined);
      expect(listMembers(t.store)[0]).toEqual(expect.objectContaining({ ID: 'a', Status: 'alive' }));
    } finally {
      await beat.stop();
    }
  });

  it('its writes delete the records past the reaping age, and keep the others', async () => {
    const now = Date.now();
    await joinCluster(t.store, server('old'), '1.0.0', now - FAILED_AFTER_MS - REAP_AFTER_MS - 60_000);
    await joinCluster(t.store, server('failed'), '1.0.0', now - FAILED_AFTER_MS - 60_000);
    const beat = startMemberHeartbeat(t.store, server('a'), '1.0.0', 10);
    try {
      await until(async () => record('a') ?? null, (r) => r !== null, 'the first heartbeat');
      expect(record('old')).toBeUndefined();
      expect(listMembers(t.store).map((m) => [m.ID, m.Status])).toEqual([
        ['a', 'alive'],
        ['failed', 'failed'],
      ]);
    } finally {
      await beat.stop();
    }
  });

  it('stop() removes the record, and no beat puts it back', async () => {
    const self = server('a');
    await joinCluster(t.store, self, '1.0.0');
    const beat = startMemberHeartbeat(t.store, self, '1.0.0', 1);
    await until(async () => record('a')!, (r) => r.LastSeen > r.StartedAt, 'a heartbeat');
    await beat.stop();
    expect(record('a')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 20));
    expect(record('a')).toBeUndefined();
    expect(listMembers(t.store)).toEqual([]);
  });

  it('a failed write is logged, never thrown out of the timer, and stop() still resolves', async () => {
    const warnings: string[] = [];
    await t.store.close();
    const beat = startMemberHeartbeat(t.store, server('a'), '1.0.0', 5, { warn: (m) => warnings.push(m) });
    await until(async () => [...warnings], (w) => w.length >= 2, 'two failed beats logged');
    expect(warnings[0]).toMatch(/^cluster member heartbeat failed: /);
    await expect(beat.stop()).resolves.toBeUndefined();
    expect(warnings.at(-1)).toMatch(/^could not remove this server's cluster member record: /);
    t = await TestStore.open();
  });
});
