/**
 * Several `svc server` processes on one PostgreSQL database, as users run a cluster: one leads (runs the
 * schedulers), every server answers reads and writes, a follower's node registers and heartbeats through
 * the leader, and when the leader is killed (-9) while jobs register and remote nodes (svc agent) report,
 * a follower takes over without losing or doubling anything.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { clusterApi, startPgCluster } from '../support/pg-cluster.js';
import { runningAgents, spawnAgent, stopAgent } from '../support/spawn-agent.js';
import { writeTestPki } from '../support/tls.js';
import { until as waitUntil } from '../support/wait.js';
import { ApiClient } from '../../src/api/http/client.js';
import { freePort } from '../support/free-port.js';

let postgres: Postgres;
let home: string;
let work: string;
let databases = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  home = await makeTempDir('svc-e2e-cluster-home-');
  work = await makeTempDir('svc-e2e-cluster-work-');
});

afterEach(() => {
  for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
});

afterAll(async () => {
  await postgres?.stop();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const LEADS = /this server leads the cluster \(term (\d+)\)/;

const output = (s: SpawnedServer) => s.stdout() + s.stderr();

/** Starts `names.length` servers on a new database; `client` says which run a node. */
async function startCluster(
  names: string[],
  client: (name: string) => boolean,
  extra: string[] = [],
  listen: (name: string) => string[] = () => ['-port=0'],
): Promise<{ servers: SpawnedServer[]; token: string }> {
  const url = await createDatabase(postgres.url, `svc_cluster_${++databases}`);
  const servers = await startPgCluster(names, { url, dataDir: (name) => path.join(work, `${databases}-${name}`), args: (name) => [...listen(name), `-client=${client(name)}`, '-node', `node-${name}`, ...extra], home });
  return { servers, token: servers[0].rootToken! };
}

const api = clusterApi;

/** Waits until `probe` answers something (undefined: not yet). */
const until = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitUntil(probe, (v) => v !== undefined, what, 30_000) as Promise<T>;

const batchJob = (id: string) => ({
  Job: {
    ID: id,
    Type: 'batch',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
  },
});

describe('servers sharing one PostgreSQL database', () => {
  it('elect one leader; every server answers reads and writes; followers forward their nodes to the leader', async () => {
    // The leader-to-be says where the others reach it (-advertise), as a server behind NAT would.
    const port = await freePort();
    const { servers, token } = await startCluster(['a', 'b', 'c'], () => true, [], (name) => (name === 'a' ? [`-port=${port}`, `-advertise=http://127.0.0.1:${port}`] : ['-port=0']));
    try {
      const [a, b, c] = servers;
      expect((await api(c, token, 'GET', '/v1/status/leader')).body).toBe(`127.0.0.1:${port}`);
      // The first server took the lead at term 1; the others follow.
      expect(LEADS.exec(output(a))?.[1]).toBe('1');
      expect(output(b)).not.toMatch(LEADS);
      expect(output(c)).not.toMatch(LEADS);
      for (const s of servers) {
        const res = await api(s, token, 'GET', '/v1/jobs');
        expect(res.status).toBe(200);
        expect(res.headers.get('x-svc-knownleader')).toBe('true');
        expect(Number(res.headers.get('x-svc-lastcontact'))).toBeGreaterThanOrEqual(0);
      }
      expect((await api(a, token, 'GET', '/v1/jobs')).headers.get('x-svc-lastcontact')).toBe('0');
      // Nomad's agent-info: who leads, and where.
      const self = (s: SpawnedServer) => api(s, token, 'GET', '/v1/agent/self').then((r) => r.body.stats.nomad);
      expect(await self(a)).toMatchObject({ leader: 'true' });
      expect(await self(b)).toMatchObject({ leader: 'false', leader_addr: new URL(a.url).host });

      // Every server's node registered (the followers' through the leader) and stays ready.
      const nodes = await until('three ready nodes', async () => {
        const list = (await api(c, token, 'GET', '/v1/nodes')).body as Array<{ Name: string; Status: string }>;
        return list.filter((n) => n.Status === 'ready').length === 3 ? list : undefined;
      });
      expect(nodes.map((n) => n.Name).sort()).toEqual(['node-a', 'node-b', 'node-c']);

      // A job registered on a follower is scheduled by the leader and run; another follower sees it done.
      const registered = await api(b, token, 'POST', '/v1/jobs', batchJob('through-b'));
      expect(registered.status).toBe(200);
      const summary = await until('the job to complete', async () => {
        const s = (await api(c, token, 'GET', '/v1/job/through-b/summary')).body.Summary.g;
        return s.Complete === 1 ? s : undefined;
      });
      expect(summary.Failed).toBe(0);

      // A heartbeat sent to a follower is judged by the leader: a wrong secret is refused there.
      const nodeOf = nodes.find((n) => n.Name === 'node-b') as unknown as { ID: string };
      const beat = await api(b, 'not-a-node-secret', 'PUT', `/v1/node/${nodeOf.ID}/heartbeat`);
      expect(beat.status).toBe(403);
    } finally {
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  });

  it('replace a leader killed with -9 while jobs register and two remote nodes report: nothing acknowledged is lost, nothing placed twice', async () => {
    const { servers, token } = await startCluster(['a', 'b', 'c'], () => false);
    const [a, b, c] = servers;
    // Two nodes on their own (svc agent), talking to the leader first: they must move on when it dies.
    const agents = await Promise.all(
      ['n1', 'n2'].map((name) => spawnAgent([`-servers=${servers.map((s) => s.url).join(',')}`, `-data-dir=${path.join(work, `${databases}-${name}`)}`, '-token', token, '-node', name, '-log-level=warn'], { HOME: home })),
    );
    try {
      await until('two ready nodes', async () => {
        const list = (await api(b, token, 'GET', '/v1/nodes')).body as Array<{ Status: string }>;
        return list.filter((n) => n.Status === 'ready').length === 2 ? true : undefined;
      });
      const acknowledged: string[] = [];
      let killedAt = 0;
      let n = 0;
      const register = async (via: SpawnedServer) => {
        while (killedAt === 0 || Date.now() - killedAt < 3000) {
          const id = `job-${n++}`;
          const res = await api(via, token, 'POST', '/v1/jobs', batchJob(id)).catch(() => undefined);
          if (res?.status === 200) acknowledged.push(id);
          if (acknowledged.length >= 10 && killedAt === 0) {
            killedAt = Date.now();
            a.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all([register(b), register(c)]);
      await a.exited;

      // One of the followers took the lead, at the next term.
      const leader = await until('a new leader', async () => [b, c].find((s) => LEADS.exec(output(s))?.[1] === '2'));
      expect([b, c].filter((s) => LEADS.test(output(s)))).toEqual([leader]);

      // Every acknowledged registration is there, and every job ran exactly one allocation.
      expect(acknowledged.length).toBeGreaterThan(10);
      for (const id of acknowledged) {
        const summary = await until(`job ${id} to complete`, async () => {
          const s = (await api(leader, token, 'GET', `/v1/job/${id}/summary`)).body.Summary.g;
          return s.Complete === 1 ? s : undefined;
        });
        expect(summary.Failed + summary.Lost + summary.Running + summary.Starting).toBe(0);
        const allocs = (await api(b, token, 'GET', `/v1/job/${id}/allocations`)).body as unknown[];
        expect(allocs).toHaveLength(1);
      }
      // Both nodes stayed in: neither was marked down while their server was gone.
      const nodes = (await api(c, token, 'GET', '/v1/nodes')).body as Array<{ Name: string; Status: string }>;
      expect(nodes.map((n) => [n.Name, n.Status]).sort()).toEqual([
        ['n1', 'ready'],
        ['n2', 'ready'],
      ]);
    } finally {
      await Promise.all(agents.map((x) => stopAgent(x)));
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  });

  it('mark the node of a server cut off (stopped) down, and replace its allocation on another node', async () => {
    const config = path.join(work, 'fast-heartbeats.hcl');
    await writeFile(config, 'server {\n  min_heartbeat_ttl = "1s"\n  heartbeat_grace = "1s"\n}\n');
    const { servers, token } = await startCluster(['a', 'b', 'c'], () => true, ['-config', config]);
    const [a] = servers;
    try {
      const nodes = await until('three ready nodes', async () => {
        const list = (await api(a, token, 'GET', '/v1/nodes')).body as Array<{ ID: string; Name: string; Status: string }>;
        return list.filter((n) => n.Status === 'ready').length === 3 ? list : undefined;
      });
      const job = batchJob('spread');
      Object.assign(job.Job.TaskGroups[0], { Count: 2, Tasks: [{ ...job.Job.TaskGroups[0].Tasks[0], Config: { command: '/bin/sleep', args: ['20'] } }] });
      // One allocation a node: whichever node loses its allocation, one node is left free to take it.
      Object.assign(job.Job, { Constraints: [{ Operand: 'distinct_hosts', RTarget: 'true' }] });
      expect((await api(a, token, 'POST', '/v1/jobs', job)).status).toBe(200);
      type Alloc = { ID: string; NodeID: string; ClientStatus: string };
      const placed = await until('two running allocations', async () => {
        const allocs = (await api(a, token, 'GET', '/v1/job/spread/allocations')).body as Alloc[];
        return allocs.filter((x) => x.ClientStatus === 'running').length === 2 ? allocs : undefined;
      });
      // Cut off a follower (not the leader, a) whose node runs one of them.
      const victim = [servers[2], servers[1]].find((s) => placed.some((x) => x.NodeID === nodes.find((n) => n.Name === `node-${s === servers[1] ? 'b' : 'c'}`)!.ID))!;
      const victimNode = nodes.find((n) => n.Name === `node-${victim === servers[1] ? 'b' : 'c'}`)!;
      const lost = placed.find((x) => x.NodeID === victimNode.ID)!;

      victim.child.kill('SIGSTOP');
      try {
        await until('the node to be marked down', async () => ((await api(a, token, 'GET', `/v1/node/${victimNode.ID}`)).body.Status === 'down' ? true : undefined));
        const after = await until('a replacement running on another node', async () => {
          const allocs = (await api(a, token, 'GET', '/v1/job/spread/allocations')).body as Alloc[];
          const running = allocs.filter((x) => x.ClientStatus === 'running' && x.NodeID !== victimNode.ID);
          return running.length === 2 ? allocs : undefined;
        });
        expect(after.find((x) => x.ID === lost.ID)?.ClientStatus).toBe('lost');
        expect(after).toHaveLength(3);
        expect(new Set(after.filter((x) => x.ClientStatus === 'running').map((x) => x.NodeID)).size).toBe(2);
      } finally {
        victim.child.kill('SIGCONT');
      }
    } finally {
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  });

  it('run over TLS: a follower forwards its nodes to the leader presenting its certificate, and an agent joins with mutual TLS', async () => {
    const pkiDir = path.join(work, 'pki');
    await mkdir(pkiDir, { recursive: true });
    const pki = await writeTestPki(pkiDir);
    const tls = ['-tls-cert', pki.serverCert, '-tls-key', pki.serverKey, '-tls-client-ca', pki.caCert, '-tls-node-client-cert'];
    const { servers, token } = await startCluster(['a', 'b'], () => true, tls);
    const [a, b] = servers;
    expect(a.url).toMatch(/^https:/);
    const agent = await spawnAgent(
      [`-servers=${b.url}`, `-data-dir=${path.join(work, `${databases}-n1`)}`, '-token', token, '-node', 'n1', '-ca-cert', pki.caCert, '-client-cert', pki.clientCert, '-client-key', pki.clientKey],
      { HOME: home },
    );
    try {
      const viaB = new ApiClient({ address: b.url, token, tls: { caCert: pki.caCert } });
      const nodes = await until('three ready nodes', async () => {
        const list = (await viaB.scheduler<Array<{ Name: string; Status: string }>>('GET', '/v1/nodes')).body;
        return list.filter((n) => n.Status === 'ready').length === 3 ? list : undefined;
      });
      expect(nodes.map((n) => n.Name).sort()).toEqual(['n1', 'node-a', 'node-b']);
      expect(output(a)).toMatch(LEADS);
      expect(output(b)).not.toMatch(LEADS);
      await viaB.scheduler('POST', '/v1/jobs', { body: batchJob('over-tls') });
      await until('the job to complete', async () => ((await viaB.scheduler<{ Summary: { g: { Complete: number } } }>('GET', '/v1/job/over-tls/summary')).body.Summary.g.Complete === 1 ? true : undefined));
    } finally {
      await stopAgent(agent);
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  });

  it('mark a remote node cut off (its agent stopped) down, and replace its allocation on the other', async () => {
    const config = path.join(work, 'fast-heartbeats-agents.hcl');
    await writeFile(config, 'server {\n  min_heartbeat_ttl = "1s"\n  heartbeat_grace = "1s"\n}\n');
    const { servers, token } = await startCluster(['a', 'b'], () => false, ['-config', config]);
    const [a, b] = servers;
    const agents = await Promise.all(
      ['n1', 'n2'].map((name) => spawnAgent([`-servers=${b.url},${a.url}`, `-data-dir=${path.join(work, `${databases}-${name}`)}`, '-token', token, '-node', name, '-log-level=warn'], { HOME: home })),
    );
    try {
      const nodes = await until('two ready nodes', async () => {
        const list = (await api(a, token, 'GET', '/v1/nodes')).body as Array<{ ID: string; Name: string; Status: string }>;
        return list.filter((n) => n.Status === 'ready').length === 2 ? list : undefined;
      });
      const job = batchJob('one');
      Object.assign(job.Job.TaskGroups[0], { Tasks: [{ ...job.Job.TaskGroups[0].Tasks[0], Config: { command: '/bin/sleep', args: ['20'] } }] });
      expect((await api(b, token, 'POST', '/v1/jobs', job)).status).toBe(200);
      type Alloc = { ID: string; NodeID: string; ClientStatus: string };
      const [first] = await until('a running allocation', async () => {
        const allocs = (await api(a, token, 'GET', '/v1/job/one/allocations')).body as Alloc[];
        return allocs.some((x) => x.ClientStatus === 'running') ? allocs : undefined;
      });
      const victim = agents[nodes.find((n) => n.ID === first.NodeID)!.Name === 'n1' ? 0 : 1];
      victim.child.kill('SIGSTOP');
      try {
        const after = await until('the replacement running on the other node', async () => {
          const allocs = (await api(b, token, 'GET', '/v1/job/one/allocations')).body as Alloc[];
          return allocs.some((x) => x.ClientStatus === 'running' && x.NodeID !== first.NodeID) ? allocs : undefined;
        });
        expect(after.find((x) => x.ID === first.ID)?.ClientStatus).toBe('lost');
        expect((await api(a, token, 'GET', `/v1/node/${first.NodeID}`)).body.Status).toBe('down');
      } finally {
        victim.child.kill('SIGCONT');
      }
    } finally {
      await Promise.all(agents.map((x) => stopAgent(x)));
      await Promise.all(servers.map((s) => stopServer(s)));
    }
  });
});

describe('svc server -advertise', () => {
  it('must be an http(s)://host:port address: anything else is a usage error', async () => {
    for (const bad of ['10.0.0.1:4646', 'ftp://10.0.0.1:4646', 'http://10.0.0.1:4646/v1']) {
      const result = await runCli(['server', '-data-dir', path.join(work, 'never'), `-advertise=${bad}`], { HOME: home, NO_COLOR: '1' });
      expect(result.code, bad).toBe(1);
      expect(result.stderr, bad).toContain(`invalid -advertise (or server.advertise) "${bad}": expected http(s)://host:port`);
    }
  });
});
