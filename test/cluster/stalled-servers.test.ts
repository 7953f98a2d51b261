/**
 * Servers on one PostgreSQL database, one of them stopped with SIGSTOP (as a debugger, a long pause or a
 * stalled VM would stop it): a follower frozen inside a write holds the writers' lock only until the
 * database ends its session, and the other servers' writes go on meanwhile; a leader frozen while it
 * commits plans loses its lease, another server leads at the next term and schedules, and the old one,
 * let run again, finds its late write refused and steps down. Real processes (bin/svc), real PostgreSQL.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { clusterApi, startPgCluster, type ClusterAnswer } from '../support/pg-cluster.js';
import { fakeNode } from '../support/nodes.js';
import { until as waitUntil } from '../support/wait.js';

let postgres: Postgres;
let home: string;
let work: string;
let databases = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  home = await makeTempDir('svc-stall-home-');
  work = await makeTempDir('svc-stall-work-');
});

afterEach(() => {
  for (const child of running) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

afterAll(async () => {
  await postgres?.stop();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const output = (s: SpawnedServer) => s.stdout() + s.stderr();
const LEADS = /this server leads the cluster \(term (\d+)\)/;

async function startCluster(names: string[], extra: string[] = []): Promise<{ servers: SpawnedServer[]; token: string; url: string }> {
  const url = await createDatabase(postgres.url, `svc_stall_${++databases}`);
  const servers = await startPgCluster(names, { url, dataDir: (name) => path.join(work, `${databases}-${name}`), args: () => ['-port=0', '-client=false', ...extra], home });
  return { servers, token: servers[0].rootToken!, url };
}

type Answer = ClusterAnswer;
const api = clusterApi;

const until = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitUntil(probe, (v) => v !== undefined, what, 60_000) as Promise<T>;

/** The process's state letter in /proc: T while it is stopped. */
async function processState(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Sessions of the cluster's database sitting in a transaction. */
const idleInTransaction = (url: string) =>
  sql<{ n: string }>(url, "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'").then((rows) => Number(rows[0].n));

/**
 * Whether a session that sits in a transaction without moving holds the writers' lock: a probe asks for
 * the lock, and what it waits behind is looked at twice; a session of a live process would have moved on.
 */
async function stuckLockHolder(url: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url });
  const watch = new pg.Client({ connectionString: url });
  await Promise.all([probe.connect(), watch.connect()]);
  try {
    const pid = (await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await probe.query('BEGIN');
    const locking = probe.query('SELECT 1 FROM svc_meta WHERE id = 1 FOR UPDATE').then(
      () => true,
      () => false,
    );
    // What the probe waits behind, and what those wait behind: a write queued ahead of the probe waits too.
    const holders = async () => {
      const seen = new Map<number, { pid: number; state: string; since: string }>();
      for (let wave = [pid]; wave.length > 0; ) {
        const { rows } = await watch.query<{ pid: number; state: string; since: string }>(
          'SELECT a.pid, a.state, a.state_change::text AS since FROM pg_stat_activity a WHERE a.pid IN (SELECT unnest(pg_blocking_pids(w)) FROM unnest($1::int[]) AS w) ORDER BY a.pid',
          [wave],
        );
        wave = rows.filter((r) => !seen.has(r.pid)).map((r) => r.pid);
        for (const r of rows) seen.set(r.pid, r);
      }
      return [...seen.values()];
    };
    const first = await until('the probe to wait for the lock or take it', async () => {
      const [me] = (await watch.query<{ state: string; wait: string | null }>('SELECT state, wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1', [pid])).rows;
      if (me.state === 'idle in transaction') return [];
      if (me.wait !== 'Lock') return undefined;
      const rows = await holders();
      return rows.length > 0 ? rows : undefined;
    });
    const stuck = first.filter((h) => h.state === 'idle in transaction');
    const again = stuck.length > 0 ? await holders() : [];
    await watch.query('SELECT pg_cancel_backend($1)', [pid]);
    await locking;
    return stuck.some((h) => again.some((g) => g.pid === h.pid && g.state === h.state && g.since === h.since));
  } finally {
    await probe.query('ROLLBACK').catch(() => {});
    await Promise.all([probe.end(), watch.end()]);
  }
}

/**
 * Stops `server` (SIGSTOP) at a moment it is inside a write transaction, holding the writers' lock, while
 * `busy` (the count of its answers) says it keeps writing; otherwise lets it run a little and tries again.
 */
async function freezeInsideWrite(server: SpawnedServer, url: string, busy: () => number): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    server.child.kill('SIGSTOP');
    if (await stuckLockHolder(url)) return;
    server.child.kill('SIGCONT');
    const answered = busy();
    await until('another write to be answered', async () => (busy() > answered ? true : undefined));
  }
  throw new Error('never caught the server inside a write');
}

describe('a stalled server does not stop the cluster', () => {
  it("a follower frozen inside a write: the database ends its session, the others' writes go on, and the follower's write fails with a 503 saying why", async () => {
    // The bound set in the config file's storage block (the -storage-url flag names the database).
    const config = path.join(work, 'short-stalls.hcl');
    await writeFile(config, `storage "postgres" {\n  url = "${postgres.url}"\n  idle_in_transaction_timeout = "3s"\n  statement_timeout = "10s"\n}\n`);
    const { servers, token, url } = await startCluster(['a', 'b'], ['-config', config]);
    const [a, b] = servers;
    await until('a to lead', async () => (LEADS.test(output(a)) ? true : undefined));
    // Writes on b, four at a time, until told to stop: b is inside a write most of the time.
    const answers: Answer[] = [];
    let writing = true;
    const loops = Array.from({ length: 4 }, async (_, loop) => {
      for (let n = 0; writing; n++) {
        const res = await api(b, token, 'PUT', `/v1/sys/policy/b-${loop}-${n}`, { policy: `path "secret/${loop}/${n}" { capabilities = ["read"] }` });
        answers.push(res);
      }
    });
    try {
      await until('b to be writing', async () => (answers.length >= 20 ? true : undefined));
      await freezeInsideWrite(b, url, () => answers.length);
      const answeredBefore = answers.length;

      // a writes while b is still stopped inside its write: only once the database ended b's session.
      const during = await api(a, token, 'PUT', '/v1/sys/policy/during-the-freeze', { policy: 'path "x" { capabilities = ["read"] }' });
      expect(during.status).toBe(204);
      expect(await processState(b.child.pid!)).toBe('T');
      expect(answers.length).toBe(answeredBefore);
      expect(await idleInTransaction(url)).toBe(0);

      b.child.kill('SIGCONT');
      writing = false;
      await Promise.all(loops);
      // The writes b had in that transaction fail, in Vault's format, saying why and when to retry.
      const refused = answers.slice(answeredBefore).filter((r) => r.status !== 204);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('2');
        expect(r.body).toEqual({
          errors: [
            "This server stalled inside a write for more than 3 s, and the cluster's state database ended its session so that the other servers could write. Nothing of it was written. Retry the request; the server reconnects on its own.",
          ],
        });
      }
      expect(output(b)).toMatch(/\[WARN\] storage: the state database ended this server's write session: it sat in a transaction for more than 3000 ms/);
      // b goes on writing; a sees b's writes and b sees a's.
      expect((await api(b, token, 'PUT', '/v1/sys/policy/after', { policy: 'path "y" { capabilities = ["read"] }' })).status).toBe(204);
      await until('a to read b’s write', async () => ((await api(a, token, 'GET', '/v1/sys/policy/after')).status === 200 ? true : undefined));
      expect((await api(b, token, 'GET', '/v1/sys/policy/during-the-freeze')).status).toBe(200);
      // Every write b acknowledged is there.
      const written = answers.filter((r) => r.status === 204).length;
      const policies = (await api(a, token, 'GET', '/v1/sys/policy')).body.policies as string[];
      expect(policies.filter((p) => p.startsWith('b-')).length).toBe(written);
    } finally {
      writing = false;
      b.child.kill('SIGCONT');
      await Promise.all(loops);
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  }, 180_000);

  it('a leader frozen while it commits plans loses the lead: another server leads at the next term and schedules; the old one, let run, is refused and steps down', async () => {
    // Nodes that only registered stay ready through the test: nothing here heartbeats for them.
    const config = path.join(work, 'slow-heartbeats.hcl');
    await writeFile(config, 'server {\n  min_heartbeat_ttl = "10m"\n  heartbeat_grace = "10m"\n  failover_heartbeat_ttl = "10m"\n}\n');
    const { servers, token, url } = await startCluster(['a', 'b', 'c'], ['-config', config]);
    const [a, b, c] = servers;
    await until('a to lead', async () => (LEADS.exec(output(a))?.[1] === '1' ? true : undefined));
    for (let i = 0; i < 8; i++) {
      const fake = fakeNode();
      expect((await api(b, token, 'PUT', '/v1/node/register', { Node: fake.node, SecretID: fake.secret })).status).toBe(200);
    }
    await until('eight ready nodes', async () => {
      const nodes = (await api(c, token, 'GET', '/v1/nodes')).body as Array<{ Status: string }>;
      return nodes.filter((n) => n.Status === 'ready').length === 8 ? true : undefined;
    });
    const job = (id: string, count: number) => ({
      Job: { ID: id, Type: 'service', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }] }] },
    });
    // Jobs of many placements, registered on b one after another, keep the leader committing plans (the
    // nodes hold 8 × 400 of them: room for every job registered before the freeze is caught).
    const PLACEMENTS = 50;
    const jobs: string[] = [];
    let registering = true;
    const registrations = (async () => {
      for (let n = 0; registering; n++) {
        const res = await api(b, token, 'POST', '/v1/jobs', job(`big-${n}`, PLACEMENTS));
        if (res.status === 200) jobs.push(`big-${n}`);
      }
    })();
    let frozen = false;
    try {
      await until('a first job', async () => (jobs.length > 0 ? true : undefined));
      await freezeInsideWrite(a, url, () => jobs.length);
      frozen = true;
      // Caught inside a write while it still led: nobody else had taken over.
      expect([b, c].filter((s) => LEADS.test(output(s)))).toEqual([]);
      registering = false;
      await registrations;

      // Another server takes the lead at term 2 and schedules, a still stopped.
      const leader = await until('a new leader', async () => [b, c].find((s) => LEADS.exec(output(s))?.[1] === '2'));
      expect([b, c].filter((s) => LEADS.test(output(s)))).toEqual([leader]);
      const after = await api(c, token, 'POST', '/v1/jobs', job('after-the-freeze', 3));
      expect(after.status).toBe(200);
      await until('the new leader to place it', async () => {
        const allocs = (await api(leader, token, 'GET', '/v1/job/after-the-freeze/allocations')).body as unknown[];
        return allocs.length === 3 ? true : undefined;
      });
      expect(await processState(a.child.pid!)).toBe('T');
      expect(output(a)).not.toMatch(/no longer leads/);

      a.child.kill('SIGCONT');
      frozen = false;
      await until('a to step down', async () => (/this server no longer leads the cluster \(term 1\)/.test(output(a)) ? true : undefined));
      // The write it was frozen inside fails once it runs again: the database ended that session, which the
      // server hears as the database's own word (25P03) or, when it writes before reading it, as the
      // connection broken under it; what it writes as leader after that meets the fence.
      const REFUSED = /ended this server's write session|failed a write \(writing\)|NotLeader/;
      await until('a’s late write to be refused', async () => (REFUSED.test(output(a)) ? true : undefined));
      const log = output(a);
      // In order: it led; then it lost the lead and stepped down, and its write from inside the freeze was refused.
      const led = log.search(LEADS);
      const refused = log.search(REFUSED);
      // Its reason depends on what it notices first on waking: its lease run out, its lock session ended, or the state naming the new leader.
      const lost = log.search(/this server lost the lead \(term 1\): /);
      const down = log.search(/this server no longer leads the cluster \(term 1\)/);
      expect(led).toBeGreaterThanOrEqual(0);
      expect(refused).toBeGreaterThan(led);
      expect(lost).toBeGreaterThan(led);
      expect(down).toBeGreaterThan(lost);
      expect(output(a)).not.toMatch(/this server leads the cluster \(term [3-9]/);
      // a follows the new leader, and every job has its placements exactly once.
      await until('a to name the new leader', async () => ((await api(a, token, 'GET', '/v1/status/leader')).body === new URL(leader.url).host ? true : undefined));
      for (const id of [...jobs, 'after-the-freeze']) {
        const want = id === 'after-the-freeze' ? 3 : PLACEMENTS;
        const allocs = await until(`job ${id} placed`, async () => {
          const list = (await api(leader, token, 'GET', `/v1/job/${id}/allocations`)).body as Array<{ Name: string; DesiredStatus: string }>;
          return list.length >= want ? list : undefined;
        });
        expect(allocs.length).toBe(want);
        expect(new Set(allocs.map((x) => x.Name)).size).toBe(want);
      }
      expect(a.child.exitCode).toBeNull();
    } finally {
      registering = false;
      if (frozen) a.child.kill('SIGCONT');
      await registrations;
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  }, 180_000);
});
