/**
 * `svc alloc status -stats` and `svc node status -stats` against a real busy task on the server's own
 * node: Nomad's Task Resources table with the MHz spent and the memory held beside what the task was
 * given (and, with -verbose, the Memory and CPU Stats tables), and the node's Allocation and Host
 * Resource Utilization sections with the host's CPU, memory and disk figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

/** What the task holds: a shell variable of this many bytes. */
const HELD_BYTES = 24 * 1024 * 1024;

let srv: TestServer;
let allocId: string;
let nodeId: string;

beforeAll(async () => {
  srv = await startTestServer();
  const job = {
    ID: 'spin',
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        Tasks: [
          {
            Name: 'spin',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', `x=$(head -c ${HELD_BYTES} /dev/zero | tr '\\0' a); while :; do :; done`] },
            Resources: { CPU: 500, MemoryMB: 300 },
            KillTimeout: 1_000_000_000,
          },
        ],
      },
    ],
  };
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
  const [alloc] = await until(
    () => srv.client().scheduler<Array<{ ID: string; NodeID: string; ClientStatus: string }>>('GET', '/v1/job/spin/allocations').then((r) => r.body),
    (l) => l[0]?.ClientStatus === 'running',
    'the task to run',
  );
  allocId = alloc.ID;
  nodeId = alloc.NodeID;
});
afterAll(async () => {
  await srv?.close();
});

/** The lines after `heading`, up to the next blank line. */
function section(out: string, heading: string): string[] {
  const lines = out.split('\n');
  const at = lines.indexOf(heading);
  expect(at, `${heading} in:\n${out}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

describe('svc alloc status -stats', () => {
  it('shows the MHz spent and the memory held beside what the task was given', async () => {
    // Until the task holds its memory (it reads it in first): a usage that never shows fails by the timeout.
    const r = await until(
      () => srv.cli(['alloc', 'status', '-stats', allocId]),
      (x) => x.code === 0 && /^\d+\/500 MHz\s+2\d(\.\d)? MiB\/300 MiB\s+300 MiB$/m.test(x.stdout),
      'the task resources with usage',
    );
    const [header, row] = section(r.stdout, 'Task Resources:');
    expect(header.split(/\s{2,}/)).toEqual(['CPU', 'Memory', 'Disk', 'Addresses']);
    const mhz = Number(/^(\d+)\/500 MHz/.exec(row)![1]);
    // A busy loop spends MHz: more than none, at most what the node's cores offer together.
    const { body: node } = await srv.client().scheduler<{ Attributes: Record<string, string> }>('GET', `/v1/node/${nodeId}`);
    expect(mhz).toBeGreaterThan(0);
    expect(mhz).toBeLessThanOrEqual(Number(node.Attributes['cpu.totalcompute']));
  });

  it('with -verbose, every figure measured', async () => {
    const r = await srv.cli(['alloc', 'status', '-stats', '-verbose', allocId]);
    expect(r.code, r.stderr).toBe(0);
    const memory = section(r.stdout, 'Memory Stats');
    expect(memory[0].split(/\s{2,}/)[0]).toBe('RSS');
    expect(section(r.stdout, 'CPU Stats')[1]).toMatch(/^\d+\.\d\d%/);
  });

  it('without -stats, the table is as before', async () => {
    const r = await srv.cli(['alloc', 'status', allocId]);
    expect(section(r.stdout, 'Task Resources:')[1]).toMatch(/^500 MHz\s+300 MiB\s+300 MiB$/);
  });
});

describe('svc node status -stats', () => {
  it("shows what the allocations and the host use, and the host's figures", async () => {
    const r = await srv.cli(['node', 'status', '-stats', nodeId]);
    expect(r.code, r.stderr).toBe(0);
    const [allocHeader, allocRow] = section(r.stdout, 'Allocation Resource Utilization');
    expect(allocHeader.split(/\s{2,}/)).toEqual(['CPU', 'Memory']);
    expect(allocRow).toMatch(/^\d+\/\d+ MHz\s+\d+(\.\d)? [KMG]iB\/\d+(\.\d)? [KMG]iB$/);
    const [hostHeader, hostRow] = section(r.stdout, 'Host Resource Utilization');
    expect(hostHeader.split(/\s{2,}/)).toEqual(['CPU', 'Memory', 'Disk']);
    expect(hostRow).toMatch(/^\d+\/\d+ MHz\s+\S+ [KMG]iB\/\S+ GiB\s+\S+ [KMG]iB\/\S+ [GT]iB$/);
    expect(section(r.stdout, 'CPU Stats')[0]).toBe('CPU    = cpu0');
    expect(section(r.stdout, 'Memory Stats').map((l) => l.split(' ')[0])).toEqual(['Total', 'Available', 'Used', 'Free']);
    expect(section(r.stdout, 'Disk Stats')[0]).toMatch(/^Device\s+= \S+/);
    // Without -stats, the screen has none of them.
    const plain = await srv.cli(['node', 'status', nodeId]);
    expect(plain.stdout).not.toContain('Host Resource Utilization');
  });
});
