/**
 * Chaos on a cluster: three `svc server` processes on one PostgreSQL database, two `svc agent` nodes and
 * three nodes that only registered, writes going on through every server (ACL policies, identity
 * entities, KV secrets, service and batch jobs), while faults strike at moments a seeded generator picks:
 * the leader and a follower killed with -9 and started again, a server stopped (SIGSTOP) for 8 s, every
 * database session of the servers ended, the database itself crashed and restarted; and, on a schedule of
 * their own, agents killed and started again. Once the faults end and the cluster settles, every write a server acknowledged is read
 * back with its content from every server, nothing is placed twice, one server leads, the terms only
 * grew, and no server died that the test did not kill. SVC_CHAOS_SEED=<n> replays a run's faults.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { runningAgents, spawnAgent, type SpawnedAgent } from '../support/spawn-agent.js';
import { clusterApi, startPgCluster, type ClusterAnswer } from '../support/pg-cluster.js';
import { fakeNode } from '../support/nodes.js';
import { freePort } from '../support/free-port.js';
import { until as waitUntil } from '../support/wait.js';
import { seededRandom, type Random } from '../support/seeded-random.js';

/** How long faults are applied; setting up before and checking after take about as long again. */
const CHAOS_MS = 45_000;
/** The timeouts the servers run with (the defaults), for the report on write gaps. */
const TIMEOUTS = { leaderLeaseMs: 5_000, idleInTransactionMs: 5_000, statementMs: 15_000 };
const FREEZE_MS = 8_000;
const LOOPS_PER_SERVER = 2;
const SERVICE_COUNT = 2;

const SEED = process.env.SVC_CHAOS_SEED ? Number(process.env.SVC_CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);

let postgres: Postgres;
let home: string;
let work: string;

beforeAll(async () => {
  postgres = await startPostgres();
  home = await makeTempDir('svc-chaos-home-');
  work = await makeTempDir('svc-chaos-work-');
});

afterAll(async () => {
  for (const child of [...running, ...runningAgents]) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await postgres?.stop();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** One run of a server process, and how it ended. */
interface Life {
  server: SpawnedServer;
  killed: boolean;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

interface Member {
  name: string;
  port: number;
  args: string[];
  lives: Life[];
  /** the running process; undefined while it is killed */
  current?: Life;
  frozen: boolean;
}

type Kind = 'policy' | 'entity' | 'kv' | 'service' | 'batch';

interface Write {
  kind: Kind;
  key: string;
  method: string;
  path: string;
  body: unknown;
  /** what reading it back must show */
  expected: unknown;
}

interface Ack {
  write: Write;
  via: string;
  at: number;
}

/** An answer that was not a success, or the failure of a request that got none. */
type Failure = { via: string; kind: Kind; status: number | string; body: string };

const LEADS = /^(\S+) \[INFO\] leader: this server leads the cluster \(term (\d+)\)$/gm;
/** The gauge of the term the state names; gauges carry the host name after their first word, as go-metrics' do. */
const TERM_GAUGE = /^nomad\.(?:.+\.)?nomad\.leader\.term$/;
/** Driver or socket words that must never reach a client. */
const DRIVER_WORDS = /ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated|postmaster|not queryable|timeout exceeded|SQLSTATE|pg_/;

/** Longer than any stall the test causes (a server frozen, a write waiting out the statement timeout). */
const ANSWER_WITHIN_MS = 30_000;

class NoAnswer extends Error {}

/**
 * A call of either API that fails when no answer comes within ANSWER_WITHIN_MS: a request the server
 * holds for ever is a failure to report, not a test that hangs until its own timeout says nothing.
 */
function api(server: SpawnedServer, token: string, method: string, p: string, body?: unknown): Promise<ClusterAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new NoAnswer(`${method} ${p} on ${server.url}: no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS)));
  return Promise.race([clusterApi(server, token, method, p, body), late]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = <T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> => waitUntil(probe, (v) => v !== undefined, what, ms) as Promise<T>;
const output = (s: SpawnedServer) => s.stdout() + s.stderr();

/** The write number `n` of loop `loop` on server `via`: its kind goes round, its content is its own. */
function writeFor(via: string, loop: number, n: number, rng: Random): Write {
  const key = `${via}-${loop}-${n}`;
  const token = rng.int(1e9).toString(36);
  const kinds: Kind[] = ['policy', 'entity', 'kv', 'service', 'policy', 'entity', 'kv', 'batch'];
  const kind = kinds[n % kinds.length];
  switch (kind) {
    case 'policy': {
      const policy = `path "chaos/${key}/${token}" { capabilities = ["read"] }`;
      return { kind, key, method: 'PUT', path: `/v1/sys/policy/p-${key}`, body: { policy }, expected: policy };
    }
    case 'entity': {
      const metadata = { writer: via, token };
      return { kind, key, method: 'POST', path: `/v1/identity/entity/name/e-${key}`, body: { metadata }, expected: metadata };
    }
    case 'kv': {
      const data = { value: token };
      return { kind, key, method: 'PUT', path: `/v1/chaos/k-${key}`, body: data, expected: data };
    }
    case 'service':
    case 'batch': {
      const id = `${kind}-${key}`;
      const task =
        kind === 'service'
          ? { Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }
          : { Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['0.2'] }, Resources: { CPU: 20, MemoryMB: 16 } };
      const count = kind === 'service' ? SERVICE_COUNT : 1;
      const job = { ID: id, Type: kind, Datacenters: ['dc1'], Meta: { token }, TaskGroups: [{ Name: 'g', Count: count, Tasks: [task] }] };
      return { kind, key: id, method: 'POST', path: '/v1/jobs', body: { Job: job }, expected: { token, count } };
    }
  }
}

/** What `server` answers for a write now: the content it reads back, or the status of a failed read. */
async function readBack(server: SpawnedServer, token: string, w: Write): Promise<unknown> {
  const get = (p: string) => api(server, token, 'GET', p);
  switch (w.kind) {
    case 'policy': {
      const res = await get(w.path);
      return res.status === 200 ? res.body.rules : res.status;
    }
    case 'entity': {
      const res = await get(w.path);
      return res.status === 200 ? res.body.data.metadata : res.status;
    }
    case 'kv': {
      const res = await get(w.path);
      return res.status === 200 ? res.body.data : res.status;
    }
    default: {
      const res = await get(`/v1/job/${w.key}`);
      return res.status === 200 ? { token: res.body.Meta?.token, count: res.body.TaskGroups[0].Count } : res.status;
    }
  }
}

interface Alloc {
  ID: string;
  Name: string;
  JobID: string;
  DesiredStatus: string;
  ClientStatus: string;
  NextAllocation?: string;
}

/** The allocation a name stands for now: not stopped or evicted, and not followed by a replacement. */
const current = (a: Alloc) => a.DesiredStatus === 'run' && !a.NextAllocation;

/** The longest time without an acknowledged write among `times`, from `from` to `to`, and where it began. */
function longestGap(times: number[], from: number, to: number): { ms: number; at: number } {
  const sorted = [from, ...times.filter((t) => t >= from && t <= to).sort((x, y) => x - y), to];
  let best = { ms: 0, at: from };
  for (let i = 1; i < sorted.length; i++) if (sorted[i] - sorted[i - 1] > best.ms) best = { ms: sorted[i] - sorted[i - 1], at: sorted[i - 1] };
  return best;
}

describe('a cluster under chaos', () => {
  it(
    'keeps every acknowledged write, places nothing twice and ends with one leader whose term only grew',
    async ({ onTestFailed }) => {
      const rng = seededRandom(SEED);
      console.log(`chaos seed ${SEED} (SVC_CHAOS_SEED=${SEED} replays its faults)`);
      const url = await createDatabase(postgres.url, 'svc_chaos');
      // Nodes that only registered stay ready through the test: nothing heartbeats for them, nor for an agent while it is killed.
      const config = path.join(work, 'heartbeats.hcl');
      await writeFile(config, 'server {\n  min_heartbeat_ttl = "10m"\n  heartbeat_grace = "10m"\n  failover_heartbeat_ttl = "10m"\n}\n');

      // Fixed ports: a server started again is where the agents and the test knew it.
      const names = ['a', 'b', 'c'];
      const ports = await Promise.all(names.map(() => freePort()));
      const dataDir = (name: string) => path.join(work, name);
      const args = (name: string) => [`-port=${ports[names.indexOf(name)]}`, '-client=false', '-config', config];
      const started = await startPgCluster(names, { url, dataDir, args, home });
      const token = started[0].rootToken!;
      const members: Member[] = names.map((name, i) => ({ name, port: ports[i], args: ['-data-dir', dataDir(name), '-storage-url', url, ...args(name)], lives: [], frozen: false }));
      const adopt = (m: Member, server: SpawnedServer) => {
        const life: Life = { server, killed: false };
        void server.exited.then((e) => (life.exit = e));
        m.lives.push(life);
        m.current = life;
      };
      members.forEach((m, i) => adopt(m, started[i]));
      const serverUrls = members.map((m) => `http://127.0.0.1:${m.port}`);

      const agentNames = ['n1', 'n2'];
      const agentArgs = (name: string) => [`-servers=${serverUrls.join(',')}`, `-data-dir=${path.join(work, name)}`, '-token', token, '-node', name, '-log-level=warn'];
      const agents: Array<SpawnedAgent | undefined> = await Promise.all(agentNames.map((name) => spawnAgent(agentArgs(name), { HOME: home })));
      const agentLives = agents.map((agent, i) => ({ name: agentNames[i], agent: agent! }));
      // A failed run keeps what every process wrote, where the report names it.
      onTestFailed(async () => {
        const dir = await mkdtemp(path.join(tmpdir(), `svc-chaos-${SEED}-`));
        for (const m of members) for (const [n, life] of m.lives.entries()) await writeFile(path.join(dir, `server-${m.name}-${n}.log`), output(life.server));
        for (const [n, { name, agent }] of agentLives.entries()) await writeFile(path.join(dir, `agent-${name}-${n}.log`), agent.stdout() + agent.stderr());
        console.log(`chaos seed ${SEED} failed: the servers' and agents' output is in ${dir}`);
      });

      const first = members[0].current!.server;
      expect((await api(first, token, 'POST', '/v1/sys/mounts/chaos', { type: 'kv' })).status).toBe(204);
      for (let i = 0; i < 3; i++) {
        // Room for every service job a fast machine registers in the run (thousands of allocations of 10 MHz, 10 MB).
        const fake = fakeNode();
        fake.node.NodeResources = { ...fake.node.NodeResources, Cpu: { CpuShares: 1_000_000, TotalCpuCores: 64, ReservableCpuCores: null }, Memory: { MemoryMB: 1_000_000 } };
        expect((await api(first, token, 'PUT', '/v1/node/register', { Node: fake.node, SecretID: fake.secret })).status).toBe(200);
      }
      await until('five ready nodes', async () => {
        const nodes = (await api(first, token, 'GET', '/v1/nodes')).body as Array<{ Status: string }>;
        return nodes.filter((n) => n.Status === 'ready').length === 5 ? true : undefined;
      });

      const t0 = Date.now();
      const at = (t = Date.now()) => `${((t - t0) / 1000).toFixed(1)}s`;
      const faults: Array<{ at: number; what: string }> = [];
      const fault = (what: string) => {
        faults.push({ at: Date.now(), what });
        console.log(`${at()} ${what}`);
      };

      // Writes: each is tried again after a 503 or a failed connection until acknowledged, or the run ends.
      let writing = true;
      const acks: Ack[] = [];
      const refusals: Failure[] = [];
      const unexpected: Failure[] = [];
      const attempt = async (m: Member, w: Write): Promise<boolean> => {
        while (writing) {
          const life = m.current;
          if (!life) {
            await sleep(100);
            continue;
          }
          let res: ClusterAnswer;
          try {
            res = await api(life.server, token, w.method, w.path, w.body);
          } catch (err) {
            if (err instanceof NoAnswer) {
              unexpected.push({ via: m.name, kind: w.kind, status: 'no answer', body: `${at()} ${err.message}` });
              return false;
            }
            refusals.push({ via: m.name, kind: w.kind, status: 'failed', body: String((err as Error).cause ?? err) });
            await sleep(100);
            continue;
          }
          if (res.status >= 200 && res.status < 300) return true;
          const failure = { via: m.name, kind: w.kind, status: res.status, body: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) };
          if (res.status !== 503) {
            unexpected.push(failure);
            return false;
          }
          refusals.push(failure);
          await sleep(100);
        }
        return false;
      };
      const loops = members.flatMap((m) =>
        Array.from({ length: LOOPS_PER_SERVER }, async (_, loop) => {
          const own = seededRandom(SEED + members.indexOf(m) * 101 + loop);
          for (let n = 0; writing; n++) {
            const w = writeFor(m.name, loop, n, own);
            if (await attempt(m, w)) acks.push({ write: w, via: m.name, at: Date.now() });
          }
        }),
      );

      // The term each server's state names, read from its metrics while it runs.
      const terms = new Map<string, Array<{ at: number; term: number }>>(members.map((m) => [m.name, []]));
      const watchers = members.map(async (m) => {
        while (writing) {
          const life = m.current;
          if (life && !m.frozen) {
            const res = await api(life.server, token, 'GET', '/v1/metrics').catch(() => undefined);
            const gauge = (res?.body?.Gauges as Array<{ Name: string; Value: number }> | undefined)?.find((g) => TERM_GAUGE.test(g.Name));
            if (gauge) terms.get(m.name)!.push({ at: Date.now(), term: gauge.Value });
          }
          await sleep(500);
        }
      });

      const live = () => members.filter((m) => m.current && !m.frozen);
      const isLeader = async (m: Member) => {
        const res = await api(m.current!.server, token, 'GET', '/v1/agent/self').catch(() => undefined);
        return res?.status === 200 ? res.body.stats.nomad.leader === 'true' : undefined;
      };
      const leader = () =>
        until(
          'a leader',
          async () => {
            for (const m of live()) if (await isLeader(m)) return m;
            return undefined;
          },
          30_000,
        );
      const kill = async (m: Member) => {
        const life = m.current!;
        life.killed = true;
        m.current = undefined;
        life.server.child.kill('SIGKILL');
        await life.server.exited;
      };
      const restart = async (m: Member) => {
        // A start can fail while the database restarts: tried again.
        const server = await waitUntil(() => spawnServer(m.args, { HOME: home }), Boolean, `${m.name} to start again`, 30_000);
        adopt(m, server);
        fault(`${m.name} started again`);
      };

      const actions: Record<string, () => Promise<void>> = {
        'kill the leader': async () => {
          const m = await leader();
          fault(`SIGKILL ${m.name} (the leader)`);
          await kill(m);
          await sleep(rng.between(2_000, 5_000));
          await restart(m);
        },
        'kill a follower': async () => {
          const lead = await leader();
          const m = rng.pick(live().filter((x) => x !== lead));
          fault(`SIGKILL ${m.name} (a follower)`);
          await kill(m);
          await sleep(rng.between(2_000, 5_000));
          await restart(m);
        },
        'stop a server': async () => {
          const lead = await leader();
          const m = rng.next() < 0.5 ? lead : rng.pick(live().filter((x) => x !== lead));
          fault(`SIGSTOP ${m.name}${m === lead ? ' (the leader)' : ''} for ${FREEZE_MS / 1000} s`);
          m.frozen = true;
          m.current!.server.child.kill('SIGSTOP');
          await sleep(FREEZE_MS);
          m.current!.server.child.kill('SIGCONT');
          m.frozen = false;
          fault(`SIGCONT ${m.name}`);
        },
        'end the database sessions': async () => {
          const admin = new pg.Client({ connectionString: url });
          await admin.connect();
          try {
            const { rows } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
            fault(`pg_terminate_backend of the servers' ${rows.length} sessions`);
          } finally {
            await admin.end();
          }
        },
        'restart the database': async () => {
          fault('PostgreSQL crashed (immediate shutdown)');
          await postgres.restart();
          fault('PostgreSQL accepts connections again');
        },
      };
      // Each fault once, in an order of the seed's, then more of them picked at random while time is left.
      const order = rng.shuffle(Object.keys(actions));
      const serverFaults = async () => {
        for (let applied = 0; Date.now() - t0 < CHAOS_MS || applied < order.length; applied++) {
          await sleep(rng.between(1_000, 4_000));
          await actions[applied < order.length ? order[applied] : rng.pick(order)]();
        }
      };
      // Agents are killed on a schedule of their own, whatever the servers and the database go through meanwhile.
      const agentRng = seededRandom(SEED + 7);
      const agentFaults = async () => {
        do {
          await sleep(agentRng.between(3_000, 12_000));
          const i = agentRng.int(agents.length);
          fault(`SIGKILL agent ${agentNames[i]}`);
          const agent = agents[i]!;
          agents[i] = undefined;
          agent.child.kill('SIGKILL');
          await agent.exited;
          await sleep(agentRng.between(2_000, 5_000));
          agents[i] = await spawnAgent(agentArgs(agentNames[i]), { HOME: home });
          agentLives.push({ name: agentNames[i], agent: agents[i]! });
          fault(`agent ${agentNames[i]} started again`);
        } while (Date.now() - t0 < CHAOS_MS);
      };
      try {
        const lanes = await Promise.allSettled([serverFaults(), agentFaults()]);
        for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
      } finally {
        for (const m of members) if (m.frozen) m.current?.server.child.kill('SIGCONT');
        // Writes go on a moment after the last fault, so that the cluster is seen taking them again.
        await sleep(2_000);
        writing = false;
        console.log(`${at()} faults over; waiting for the writes in flight`);
        await Promise.all([...loops, ...watchers]);
      }
      const chaosEnded = Date.now();
      console.log(`${at()} writes over; waiting for the cluster to settle`);

      // Settled: every live server names the same leader, which says it leads, and the others say they follow.
      const lead = await until('one leader named by every server', async () => {
        const named = await Promise.all(members.map((m) => api(m.current!.server, token, 'GET', '/v1/status/leader').then((r) => r.body as string)));
        const leading = await Promise.all(members.map(isLeader));
        const m = members.find((x) => `127.0.0.1:${x.port}` === named[0]);
        return m && named.every((n) => n === named[0]) && leading.filter(Boolean).length === 1 && leading[members.indexOf(m)] ? m : undefined;
      });

      console.log(`${at()} ${lead.name} leads; reading back ${acks.length} writes from every server`);
      // Every acknowledged write, on every server, with its content.
      const missing: string[] = [];
      for (const m of members) {
        const server = m.current!.server;
        for (let i = 0; i < acks.length; i += 16) {
          await Promise.all(
            acks.slice(i, i + 16).map(async ({ write: w, via, at: when }) => {
              const seen = await waitUntil(() => readBack(server, token, w), (v) => JSON.stringify(v) === JSON.stringify(w.expected), 'the write', 20_000).catch(() => undefined);
              if (seen === undefined) missing.push(`${w.kind} ${w.key} acknowledged by ${via} at ${at(when)}: ${m.name} answers ${JSON.stringify(await readBack(server, token, w).catch((e) => String(e)))}`);
            }),
          );
        }
      }

      console.log(`${at()} writes read back; checking the placements`);
      // Every acknowledged job placed, each allocation name once: the leader's allocations read whole until
      // every job has its count, or for 30 s; then what a job still lacks is told with its evaluations.
      const jobs = acks.filter((a) => a.write.kind === 'service' || a.write.kind === 'batch').map((a) => a.write);
      const placedNames = (all: Alloc[], w: Write) => all.filter((a) => a.JobID === w.key && current(a)).map((a) => a.Name);
      const unplaced = (all: Alloc[]) => jobs.filter((w) => new Set(placedNames(all, w)).size !== (w.expected as { count: number }).count);
      const leaderAllocs = await waitUntil(
        () => api(lead.current!.server, token, 'GET', '/v1/allocations').then((r) => r.body as Alloc[]),
        (all) => unplaced(all).length === 0,
        'every acknowledged job placed',
        30_000,
      ).catch(() => api(lead.current!.server, token, 'GET', '/v1/allocations').then((r) => r.body as Alloc[]));
      console.log(`${at()} placements checked`);
      const notPlaced: string[] = [];
      for (const w of unplaced(leaderAllocs).slice(0, 10)) {
        const evals = (await api(lead.current!.server, token, 'GET', `/v1/job/${w.key}/evaluations`)).body as Array<{ ID: string; Status: string; StatusDescription?: string; TriggeredBy: string; ModifyIndex: number }>;
        notPlaced.push(`${w.key} (acknowledged at ${at(acks.find((a) => a.write === w)!.at)}): allocations ${JSON.stringify(placedNames(leaderAllocs, w))}; evaluations ${JSON.stringify(evals.map((e) => [e.ID.slice(0, 8), e.TriggeredBy, e.Status, e.StatusDescription]))}`);
      }
      const unplacedCount = unplaced(leaderAllocs).length;
      const doubled: string[] = [];

      // Nor any job's, acknowledged or not (a registration whose answer was lost may have been made): each
      // name of a job's allocations stands for one current allocation, on every server.
      let allocations = 0;
      let replaced = 0;
      const clientStatuses: Record<string, number> = {};
      for (const m of members) {
        const all = (await api(m.current!.server, token, 'GET', '/v1/allocations')).body as Alloc[];
        const seen = new Map<string, string[]>();
        for (const a of all.filter(current)) seen.set(`${a.JobID}/${a.Name}`, [...(seen.get(`${a.JobID}/${a.Name}`) ?? []), a.ID]);
        for (const [name, ids] of seen) if (ids.length > 1) doubled.push(`${name} on ${m.name}: ${ids.join(', ')}`);
        if (m === lead) {
          allocations = all.length;
          replaced = all.filter((a) => !current(a)).length;
          for (const a of all) clientStatuses[a.ClientStatus] = (clientStatuses[a.ClientStatus] ?? 0) + 1;
        }
      }

      // The terms: each claimed by one server run, and what each server's state named only grew.
      const claims = members.flatMap((m) => m.lives.flatMap((life, n) => [...output(life.server).matchAll(LEADS)].map((x) => ({ who: `${m.name}#${n}`, time: x[1], term: Number(x[2]) }))));
      const fallingTerms = members.flatMap((m) => {
        const seen = terms.get(m.name)!;
        return seen.filter((s, i) => i > 0 && s.term < seen[i - 1].term).map((s) => `${m.name} at ${at(s.at)}: ${s.term}`);
      });
      const diedUnasked = members.flatMap((m) => m.lives.filter((l) => l.exit && !l.killed).map((l) => `${m.name}: ${JSON.stringify(l.exit)}\n${output(l.server).slice(-3000)}`));

      // What the run saw, for the reader: not asserted, the machine's load decides it.
      const byKind = Object.fromEntries((['policy', 'entity', 'kv', 'service', 'batch'] as Kind[]).map((k) => [k, acks.filter((a) => a.write.kind === k).length]));
      console.log(`chaos seed ${SEED}: ${faults.length} fault events in ${at(chaosEnded)}; ${acks.length} writes acknowledged ${JSON.stringify(byKind)}; ${refusals.length} answers to try again`);
      const distinct = [...new Set(refusals.map((r) => `${r.status} ${r.body}`))];
      console.log(`refusals (${distinct.length} distinct):\n  ${distinct.slice(0, 15).join('\n  ')}`);
      const whole = longestGap(
        acks.map((a) => a.at),
        t0,
        chaosEnded,
      );
      // The faults of the second before a gap and of the gap itself.
      const during = (gap: { ms: number; at: number }) =>
        faults
          .filter((f) => f.at >= gap.at - 1_000 && f.at <= gap.at + gap.ms)
          .map((f) => f.what)
          .join('; ') || 'no fault';
      console.log(`longest gap in acknowledged writes, any server: ${whole.ms} ms from ${at(whole.at)} (${during(whole)})`);
      for (const m of members) {
        const gap = longestGap(
          acks.filter((a) => a.via === m.name).map((a) => a.at),
          t0,
          chaosEnded,
        );
        console.log(`  on ${m.name}: ${gap.ms} ms from ${at(gap.at)} (${during(gap)})`);
      }
      console.log(`against: leader lease ${TIMEOUTS.leaderLeaseMs} ms, idle in transaction ${TIMEOUTS.idleInTransactionMs} ms, statement ${TIMEOUTS.statementMs} ms, freeze ${FREEZE_MS} ms`);
      console.log(`${allocations} allocations ${JSON.stringify(clientStatuses)}, ${replaced} of them stopped or replaced; ${[...terms.values()].reduce((n, t) => n + t.length, 0)} readings of the servers' terms`);
      console.log(`terms claimed: ${claims.map((c) => `${c.term} by ${c.who}`).join(', ')}; leader now ${lead.name}`);

      expect(missing).toEqual([]);
      expect(notPlaced, `${unplacedCount} acknowledged jobs not placed`).toEqual([]);
      expect(doubled).toEqual([]);
      expect(unexpected).toEqual([]);
      expect(refusals.filter((r) => DRIVER_WORDS.test(String(r.body)) && r.status !== 'failed')).toEqual([]);
      expect(new Set(claims.map((c) => c.term)).size).toBe(claims.length);
      for (const m of members) {
        const own = m.lives.flatMap((life) => [...output(life.server).matchAll(LEADS)].map((x) => Number(x[2])));
        expect(own).toEqual([...own].sort((x, y) => x - y));
      }
      for (const m of members) expect(terms.get(m.name)!.length).toBeGreaterThan(0);
      expect(fallingTerms).toEqual([]);
      expect(diedUnasked).toEqual([]);
      for (const m of members) expect(m.current!.server.child.exitCode).toBeNull();
      expect(acks.length).toBeGreaterThan(0);

      await Promise.all(members.map((m) => stopServer(m.current?.server)));
      for (const agent of agents) agent?.child.kill('SIGTERM');
      await Promise.all(agents.map((a) => a?.exited));
    },
    150_000,
  );
});
