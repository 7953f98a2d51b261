/**
 * `svc operator members` through the built bin/svc, against a real server: Vault's table of the cluster's
 * servers (sys/ha-status), the active node first, and -format=json as Vault's client prints it. The server
 * joined the list itself; the test writes a standby's record with joinCluster, as that server would. The
 * standby's name starts with '-', which sorts before any host name, so the active node is first only by
 * being active.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinCluster } from '../../src/cluster/members.js';
import { VERSION } from '../../src/version.js';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
/** when the standby last reported in: a whole second, so Go's RFC 3339 (seconds) shows it unchanged */
const standbySeen = Math.floor(Date.now() / 1000) * 1000;

beforeAll(async () => {
  srv = await startTestServer({ client: false });
  const { store } = srv.server.services;
  await joinCluster(store, { ID: 'standby-id', Name: '-standby', Address: 'https://10.0.0.7:4646' }, '0.0.9', standbySeen);
});
afterAll(async () => {
  await srv?.close();
});

describe('svc operator members', () => {
  it('prints Vault\'s table: the active node first, n/a where a value is unset', async () => {
    const r = await srv.cli(['operator', 'members']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split(/ {4,}/));
    expect(rows).toEqual([
      ['Host Name', 'API Address', 'Cluster Address', 'Active Node', 'Version', 'Upgrade Version', 'Redundancy Zone', 'Last Echo'],
      ['---------', '-----------', '---------------', '-----------', '-------', '---------------', '---------------', '---------'],
      [hostname(), srv.url, srv.url, 'true', VERSION, 'n/a', 'n/a', 'n/a'],
      ['-standby', 'https://10.0.0.7:4646', 'https://10.0.0.7:4646', 'false', '0.0.9', 'n/a', 'n/a', new Date(standbySeen).toISOString().replace('.000Z', 'Z')],
    ]);
  });

  it('-format=json prints the nodes under "Nodes", as Vault\'s client decodes them', async () => {
    const r = await srv.cli(['operator', 'members', '-format=json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      Nodes: [
        { hostname: hostname(), api_address: srv.url, cluster_address: srv.url, active_node: true, last_echo: null, version: VERSION },
        { hostname: '-standby', api_address: 'https://10.0.0.7:4646', cluster_address: 'https://10.0.0.7:4646', active_node: false, last_echo: new Date(standbySeen).toISOString(), version: '0.0.9' },
      ],
    });
  });

  it('-field is refused as a usage error (exit 1); a token that may not read sys/ha-status is a server error (exit 2)', async () => {
    const field = await srv.cli(['operator', 'members', '-field=hostname']);
    expect(field.code).toBe(1);
    expect(field.stderr).toContain('-field is not supported by operator members');
    await srv.client().secrets('PUT', 'sys/policies/acl/no-ha', { body: { policy: 'path "sys/leader" {\n  capabilities = ["read"]\n}\n' } });
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['no-ha'] } });
    const denied = await srv.cli(['operator', 'members'], { token: String(created?.auth?.client_token) });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('permission denied');
  });
});
