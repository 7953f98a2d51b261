/**
 * svc node drain (and node eligibility -self, and the Drain fields of node status) through the built
 * bin/svc against a real server whose own node runs the mock driver. The server has one node, so a
 * migrated service allocation waits for capacity; a batch allocation that never ends holds a drain open
 * (it may finish until the deadline). Every test leaves the node eligible and not draining.
 */
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import { getNode, listNodes } from '../../src/api/nodes.js';

interface Stub {
  ID: string;
  DesiredStatus: string;
  ClientStatus: string;
  DesiredTransition: { Migrate: boolean | null };
}

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)/;
const ZERO_TIME = '0001-01-01T00:00:00Z';

let srv: TestServer;
let nodeId: string;
const jobs = new Set<string>();

beforeAll(async () => {
  srv = await startTestServer({ client: { enableMockDriver: true, stopTasksOnShutdown: true } });
  nodeId = (await until(() => listNodes(srv.client()), (l) => l.some((n) => n.Status === 'ready'), 'the node to be ready'))[0].ID;
});

afterAll(async () => {
  await srv?.close();
});

// Whatever a test did, the next one finds the node eligible, not draining, and without jobs.
afterEach(async () => {
  const node = await getNode(srv.client(), nodeId);
  if (node.DrainStrategy) await srv.client().scheduler('PUT', `/v1/node/${nodeId}/drain`, { body: { DrainSpec: null, MarkEligible: true } });
  if (node.SchedulingEligibility !== 'eligible') await srv.client().scheduler('PUT', `/v1/node/${nodeId}/eligibility`, { body: { Eligibility: 'eligible' } });
  for (const id of jobs) await srv.client().scheduler('DELETE', `/v1/job/${id}`, { query: { purge: true } });
  jobs.clear();
});

const node = () => getNode(srv.client(), nodeId);
const allocsOf = async (job: string) => (await srv.client().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;

/** Runs a job of one mock task that never ends on its own, and waits until it runs. */
async function runJob(id: string, type: 'service' | 'batch'): Promise<Stub> {
  jobs.add(id);
  const job = {
    ID: id,
    Type: type,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: 1, Update: type === 'service' ? { MaxParallel: 0 } : undefined, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '0s' }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
  };
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
  const [alloc] = await until(() => allocsOf(id), (l) => l.some((a) => a.ClientStatus === 'running'), `${id} running`);
  return alloc;
}

describe('svc node drain', () => {
  it('refuses what Nomad refuses, and changes nothing', async () => {
    const cases: Array<[string[], string]> = [
      [[nodeId], "Either the '-enable' or '-disable' flag must be set, unless using '-monitor'"],
      [['-enable', '-disable', nodeId], "Either the '-enable' or '-disable' flag must be set, unless using '-monitor'"],
      [['-monitor', '-enable', nodeId], "The -monitor flag cannot be used with the '-enable' or '-disable' flags"],
      [['-enable'], "Node ID must be specified if -self isn't being used"],
      [['-enable', '-self', nodeId], "Node ID must be specified if -self isn't being used"],
      [['-disable', '-deadline', '1h', nodeId], "-disable can't be combined with flags configuring drain strategy"],
      [['-disable', '-ignore-system', nodeId], "-disable can't be combined with flags configuring drain strategy"],
      [['-enable', '-deadline', '1h', '-force', nodeId], "-deadline can't be combined with -force or -no-deadline"],
      [['-enable', '-force', '-no-deadline', nodeId], '-force and -no-deadline are mutually exclusive'],
      [['-enable', '-deadline', 'abc', nodeId], 'Failed to parse deadline "abc": time: invalid duration "abc"'],
      [['-enable', '-deadline', '10', nodeId], 'Failed to parse deadline "10": time: missing unit in duration "10"'],
      [['-enable', '-deadline', '0s', nodeId], 'A positive drain duration must be given'],
      [['-enable', '-yes', 'ffffffff'], 'No node(s) with prefix "ffffffff" found'],
    ];
    for (const [args, message] of cases) {
      const r = await srv.cli(['node', 'drain', ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    expect(await node()).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'eligible' });
  });

  it('a token without node:write gets the server\'s refusal', async () => {
    await srv.client().secrets('PUT', 'sys/policies/acl/cli-node-read', { body: { policy: 'node { policy = "read" }' } });
    const token = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['cli-node-read'] } }))?.auth?.client_token);
    const r = await srv.cli(['node', 'drain', '-enable', '-detach', nodeId], { token });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error updating drain specification: Unexpected response code: 403 (Permission denied)');
    expect((await node()).DrainStrategy).toBeNull();
  });

  it('-enable -yes -deadline follows the drain until every allocation has stopped, printing what happens', async () => {
    const web = await runJob('drain-web', 'service');
    const r = await srv.cli(['node', 'drain', '-enable', '-yes', '-deadline', '10m', nodeId.slice(0, 8)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${TIME.source}: Ctrl-C to stop monitoring: will not cancel the node drain$`));
    expect(lines[1]).toMatch(new RegExp(`^${TIME.source}: Node "${nodeId}" drain strategy set$`));
    expect(r.stdout).toMatch(new RegExp(`^${TIME.source}: Alloc "${web.ID}" status running -> complete$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^${TIME.source}: Drain complete for node ${nodeId}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^${TIME.source}: All allocations on node "${nodeId}" have stopped$`, 'm'));
    // The one node drained: its allocation migrated (its replacement waits for a node), the node stays ineligible.
    expect(await node()).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'ineligible', LastDrain: { Status: 'complete' } });
    expect((await allocsOf('drain-web')).find((a) => a.ID === web.ID)).toMatchObject({ DesiredStatus: 'stop', ClientStatus: 'complete', DesiredTransition: { Migrate: true } });
  });

  it('-detach sets the drain and returns; node status shows it; eligibility is refused; -disable unsets it', async () => {
    const batch = await runJob('drain-batch', 'batch');
    const set = await srv.cli(['node', 'drain', '-enable', '-detach', '-no-deadline', '-ignore-system', '-m', 'new disks', '-meta', 'owner=ops', nodeId]);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toBe(`Node "${nodeId}" drain strategy set\n`);
    const draining = await node();
    expect(draining.DrainStrategy).toMatchObject({ Deadline: 0, IgnoreSystemJobs: true, ForceDeadline: ZERO_TIME });
    expect(draining.LastDrain).toMatchObject({ Status: 'draining', Meta: { message: 'new disks', owner: 'ops' } });

    const detail = await srv.cli(['node', 'status', nodeId]);
    expect(detail.stdout).toMatch(/^Drain\s+= true; no deadline; ignoring system jobs$/m);
    expect(detail.stdout).toMatch(/^Eligibility\s+= ineligible$/m);
    const list = await srv.cli(['node', 'status']);
    expect(list.stdout).toMatch(/^ID\s+Node Pool\s+DC\s+Name\s+Class\s+Drain\s+Eligibility\s+Status$/m);
    expect(list.stdout).toMatch(new RegExp(`^${nodeId.slice(0, 8)}\\s+default\\s+dc1\\s+\\S+\\s+\\S+\\s+true\\s+ineligible\\s+ready$`, 'm'));

    const eligible = await srv.cli(['node', 'eligibility', '-enable', nodeId]);
    expect(eligible.code).toBe(1);
    expect(eligible.stderr).toContain("can not set node's scheduling eligibility to eligible while it is draining");

    const unset = await srv.cli(['node', 'drain', '-disable', '-m', 'done', nodeId]);
    expect(unset.code).toBe(0);
    expect(unset.stdout).toBe(`Node "${nodeId}" drain strategy unset\n`);
    // Cancelling carries the drain's metadata forward, and makes the node eligible again.
    expect(await node()).toMatchObject({
      DrainStrategy: null,
      SchedulingEligibility: 'eligible',
      LastDrain: { Status: 'canceled', Meta: { message: 'new disks', owner: 'ops', cancel_message: 'done' } },
    });
    expect((await allocsOf('drain-batch')).find((a) => a.ID === batch.ID)).toMatchObject({ DesiredStatus: 'run', ClientStatus: 'running' });

    await srv.cli(['node', 'drain', '-enable', '-detach', '-deadline', '30m', nodeId]);
    const withDeadline = await node();
    const detail2 = await srv.cli(['node', 'status', nodeId]);
    expect(detail2.stdout).toMatch(new RegExp(`^Drain\\s+= true; ${TIME.source} deadline$`, 'm'));
    expect(Date.parse(withDeadline.DrainStrategy!.ForceDeadline) - Date.parse(withDeadline.DrainStrategy!.StartedAt)).toBe(1_800_000);
    const kept = await srv.cli(['node', 'drain', '-disable', '-keep-ineligible', nodeId]);
    expect(kept.code).toBe(0);
    expect(await node()).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'ineligible' });
  });

  it('-self drains the node of the server, and node eligibility -self sets its eligibility', async () => {
    const disabled = await srv.cli(['node', 'eligibility', '-disable', '-self']);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout.trim()).toBe(`Node "${nodeId}" scheduling eligibility set: ineligible for scheduling`);
    const enabled = await srv.cli(['node', 'eligibility', '-enable', '-self']);
    expect(enabled.stdout.trim()).toBe(`Node "${nodeId}" scheduling eligibility set: eligible for scheduling`);
    expect((await node()).SchedulingEligibility).toBe('eligible');
    const both = await srv.cli(['node', 'eligibility', '-enable', '-self', nodeId]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("Node ID must be specified if -self isn't being used");

    await runJob('self-batch', 'batch');
    const set = await srv.cli(['node', 'drain', '-enable', '-self', '-detach', '-deadline', '45m']);
    expect(set.stdout).toBe(`Node "${nodeId}" drain strategy set\n`);
    expect((await node()).DrainStrategy).toMatchObject({ Deadline: 2700e9, IgnoreSystemJobs: false });
    const unset = await srv.cli(['node', 'drain', '-disable', '-self']);
    expect(unset.stdout).toBe(`Node "${nodeId}" drain strategy unset\n`);
    expect(await node()).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'eligible' });
  });

  it('acts on a node named by a prefix without a terminal only with -yes (a terminal asks)', async () => {
    await runJob('prefix-batch', 'batch');
    const prefix = nodeId.slice(0, 6);
    const refused = await srv.cli(['node', 'drain', '-enable', '-detach', prefix], { input: 'y\n' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')[0]).toBe(`"${prefix}" is a prefix of node "${nodeId}": pass the full ID, or -yes to go on without confirmation`);
    expect((await node()).DrainStrategy).toBeNull();
    const y = await srv.cli(['node', 'drain', '-enable', '-detach', '-no-deadline', '-yes', prefix]);
    expect(y.code).toBe(0);
    expect(y.stdout).toBe(`Node "${nodeId}" drain strategy set\n`);
    expect((await node()).DrainStrategy).not.toBeNull();
  });

  it('-monitor follows a drain in progress to its end, and says when there is none', async () => {
    const none = await srv.cli(['node', 'drain', '-monitor', nodeId]);
    expect(none.code).toBe(0);
    expect(none.stderr.trim()).toBe('No drain strategy set');

    const batch = await runJob('monitor-batch', 'batch');
    await srv.cli(['node', 'drain', '-enable', '-detach', '-no-deadline', nodeId]);
    const monitor = follow(['node', 'drain', '-monitor', nodeId]);
    await until(async () => monitor.stdout(), (out) => out.includes('Monitoring node'), 'the monitor to start');
    expect(monitor.stdout()).toMatch(new RegExp(`^${TIME.source}: Monitoring node "${nodeId}": Ctrl-C to detach monitoring$`, 'm'));
    // Forced now: the batch allocation is migrated and the drain completes.
    const forced = await srv.cli(['node', 'drain', '-enable', '-detach', '-force', nodeId]);
    expect(forced.code).toBe(0);
    const { code } = await monitor.exited;
    expect(code).toBe(0);
    expect(monitor.stdout()).toMatch(new RegExp(`^${TIME.source}: Drain complete for node ${nodeId}$`, 'm'));
    expect(monitor.stdout()).toMatch(new RegExp(`^${TIME.source}: All allocations on node "${nodeId}" have stopped$`, 'm'));
    expect(await node()).toMatchObject({ DrainStrategy: null, LastDrain: { Status: 'complete' } });
    expect((await allocsOf('monitor-batch')).find((a) => a.ID === batch.ID)).toMatchObject({ DesiredStatus: 'stop', DesiredTransition: { Migrate: true } });
  });
});

/** Runs bin/svc and lets the test read its output while it runs. */
function follow(args: string[]): { stdout(): string; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end();
  return { stdout: () => out, exited: new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr: err }))) };
}
