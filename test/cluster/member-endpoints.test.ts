/**
 * The cluster's members and leader through the real server, as Vault (sys/ha-status, sys/leader) and Nomad
 * (agent/members, status/leader, status/peers) answer them: a single server is the one member, alive, and
 * the leader; other members' records (written here as other servers would) are listed with their status.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_AFTER_MS, joinCluster, MEMBERS_TABLE } from '../../src/cluster/members.js';
import { VERSION } from '../../src/version.js';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let port: string;

async function tokenWithPolicy(name: string, text: string): Promise<string> {
  await ts.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
  const { secret } = await ts.server.services.tokens.create({
    policies: [name],
    path: 'auth/token/create',
    mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

async function get(path: string, token?: string): Promise<{ status: number; body: string; json: () => unknown }> {
  const answer = await ts.client(token).request('GET', path);
  const body = answer.body.toString('utf8');
  return { status: answer.status, body, json: () => JSON.parse(body) };
}

/**
 * Writes another server's record, as that server's join would, seen last at `lastSeen`. Their names start
 * with '-', which sorts before any host name: the active node comes first only by being active.
 */
async function otherServer(id: string, name: string, address: string, lastSeen = Date.now()): Promise<void> {
  await joinCluster(ts.server.services.store, { ID: id, Name: name, Address: address }, '0.0.9', lastSeen);
}

async function removeServer(id: string): Promise<void> {
  await ts.server.services.store.write((tx) => tx.delete(MEMBERS_TABLE, id));
}

beforeAll(async () => {
  ts = await startTestServer({ client: false });
  port = new URL(ts.url).port;
});
afterAll(async () => {
  await ts?.close();
});

describe('a single server', () => {
  it('sys/ha-status lists it as the active node, in data and at the top level as Vault does', async () => {
    const answer = await get('/v1/sys/ha-status');
    expect(answer.status).toBe(200);
    const body = answer.json() as { nodes: unknown[]; data: { nodes: unknown[] } };
    const node = { hostname: hostname(), api_address: ts.url, cluster_address: ts.url, active_node: true, last_echo: null, version: VERSION };
    expect(body.nodes).toEqual([node]);
    expect(Object.keys(body.nodes[0] as object)).toEqual(Object.keys(node));
    expect(body.data.nodes).toEqual([node]);
  });

  it('sys/leader needs no token and names this server, active since it took the lead', async () => {
    const answer = await get('/v1/sys/leader', '');
    expect(answer.status).toBe(200);
    const since = ts.server.services.leadership.leader()!.Since;
    expect(answer.json()).toEqual({
      ha_enabled: true,
      is_self: true,
      active_time: new Date(since).toISOString(),
      leader_address: ts.url,
      leader_cluster_address: ts.url,
      performance_standby: false,
      performance_standby_last_remote_wal: 0,
    });
  });

  it('status/leader and status/peers answer its host:port, with no token', async () => {
    expect((await get('/v1/status/leader', '')).json()).toBe(`127.0.0.1:${port}`);
    expect((await get('/v1/status/peers', '')).json()).toEqual([`127.0.0.1:${port}`]);
  });

  it('agent/members lists it in Nomad\'s shape', async () => {
    const answer = await get('/v1/agent/members');
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      ServerName: hostname(),
      ServerRegion: 'global',
      ServerDC: 'dc1',
      Members: [
        {
          Name: `${hostname()}.global`,
          Addr: '127.0.0.1',
          Port: Number(port),
          Tags: { role: 'nomad', region: 'global', dc: 'dc1', build: VERSION, id: ts.server.services.leadership.self.ID, port },
          Status: 'alive',
          ProtocolMin: 1,
          ProtocolMax: 5,
          ProtocolCur: 2,
          DelegateMin: 2,
          DelegateMax: 4,
          DelegateCur: 4,
        },
      ],
    });
  });
});

describe('who may ask', () => {
  it('sys/ha-status needs read on sys/ha-status', async () => {
    const reader = await tokenWithPolicy('ha-reader', 'path "sys/ha-status" {\n  capabilities = ["read"]\n}\n');
    const other = await tokenWithPolicy('ha-other', 'path "sys/leader" {\n  capabilities = ["read"]\n}\n');
    expect((await get('/v1/sys/ha-status', reader)).status).toBe(200);
    expect(await get('/v1/sys/ha-status', other)).toEqual(expect.objectContaining({ status: 403, body: JSON.stringify({ errors: ['permission denied'] }) }));
    expect((await get('/v1/sys/ha-status', '')).status).toBe(403);
  });

  it('agent/members needs node:read, as in Nomad', async () => {
    const nodeReader = await tokenWithPolicy('members-node-read', 'node {\n  policy = "read"\n}\n');
    const nsWriter = await tokenWithPolicy('members-ns-write', 'namespace "default" {\n  policy = "write"\n}\n');
    expect((await get('/v1/agent/members', nodeReader)).status).toBe(200);
    expect(await get('/v1/agent/members', nsWriter)).toEqual(expect.objectContaining({ status: 403, body: 'Permission denied' }));
    expect((await get('/v1/agent/members', '')).status).toBe(403);
  });

  it('the status endpoints refuse a token that is sent but unknown, as Nomad does; a valid one is fine', async () => {
    for (const path of ['/v1/status/leader', '/v1/status/peers']) {
      expect(await get(path, 'not-a-token')).toEqual(expect.objectContaining({ status: 403, body: 'ACL token not found' }));
      expect((await get(path)).status).toBe(200);
    }
  });
});

describe('other servers', () => {
  it('standbys are listed after the active node with their last echo; a failed one is no peer', async () => {
    const seen = Date.now();
    await otherServer('standby-1', '-standby', 'https://10.0.0.7:8200', seen);
    await otherServer('standby-2', '-failed', 'http://10.0.0.8', seen - FAILED_AFTER_MS - 60_000);
    try {
      const { nodes } = (await get('/v1/sys/ha-status')).json() as { nodes: Array<Record<string, unknown>> };
      expect(nodes.map((n) => [n.hostname, n.active_node, n.last_echo])).toEqual([
        [hostname(), true, null],
        ['-failed', false, new Date(seen - FAILED_AFTER_MS - 60_000).toISOString()],
        ['-standby', false, new Date(seen).toISOString()],
      ]);
      expect(nodes[2]).toEqual(expect.objectContaining({ api_address: 'https://10.0.0.7:8200', cluster_address: 'https://10.0.0.7:8200', version: '0.0.9' }));

      expect(((await get('/v1/status/peers')).json() as string[]).sort()).toEqual(['10.0.0.7:8200', `127.0.0.1:${port}`]);
      const { Members } = (await get('/v1/agent/members')).json() as { Members: Array<Record<string, unknown>> };
      expect(Members.map((m) => [m.Name, m.Addr, m.Port, m.Status, (m.Tags as Record<string, string>).port])).toEqual([
        ['-failed.global', '10.0.0.8', 80, 'failed', '80'],
        ['-standby.global', '10.0.0.7', 8200, 'alive', '8200'],
        [`${hostname()}.global`, '127.0.0.1', Number(port), 'alive', port],
      ]);
    } finally {
      await removeServer('standby-1');
      await removeServer('standby-2');
    }
  });

  it('an IPv6 address is written [host]:port; a server with no address yet is listed without one', async () => {
    await otherServer('v6', '-v6-server', 'https://[fd00::7]:4646');
    await otherServer('unbound', '-unbound-server', '');
    try {
      expect(((await get('/v1/status/peers')).json() as string[]).sort()).toEqual([`127.0.0.1:${port}`, '[fd00::7]:4646']);
      const { Members } = (await get('/v1/agent/members')).json() as { Members: Array<Record<string, unknown>> };
      expect(Members.filter((m) => m.Name !== `${hostname()}.global`).map((m) => [m.Name, m.Addr, m.Port])).toEqual([
        ['-unbound-server.global', '', 0],
        ['-v6-server.global', 'fd00::7', 4646],
      ]);
      const { nodes } = (await get('/v1/sys/ha-status')).json() as { nodes: Array<Record<string, unknown>> };
      expect(nodes.find((n) => n.hostname === '-unbound-server')).toEqual(expect.objectContaining({ api_address: '', cluster_address: '' }));
    } finally {
      await removeServer('v6');
      await removeServer('unbound');
    }
  });
});

describe('no leader', () => {
  let follower: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    follower = await startTestServer({ client: false, logWrite: (line) => logs.push(line) });
    await follower.server.services.leadership.stop();
  });
  afterAll(async () => {
    await follower?.close();
  });

  it('status/leader answers Nomad\'s 500 "No cluster leader"; sys/leader names none, as a Vault standby that knows no leader', async () => {
    const leader = await follower.client('').request('GET', '/v1/status/leader');
    expect([leader.status, leader.body.toString('utf8').trim()]).toEqual([500, 'No cluster leader']);
    // An election's normal state, not a failure: no error with a stack for each request.
    expect(logs.filter((l) => l.includes('No cluster leader'))).toEqual([]);
    const sys = await follower.client('').request('GET', '/v1/sys/leader');
    expect(JSON.parse(sys.body.toString('utf8'))).toEqual({
      ha_enabled: true,
      is_self: false,
      active_time: '0001-01-01T00:00:00Z',
      leader_address: '',
      leader_cluster_address: '',
      performance_standby: false,
      performance_standby_last_remote_wal: 0,
    });
  });
});
