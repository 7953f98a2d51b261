/**
 * RE2 patterns where users send them to the scheduler, end to end: `regexp` constraints place by RE2
 * semantics, `matches` filters list by them, and a pattern RE2 refuses is a 400 naming where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { statusOf, until } from '../../support/wait.js';

const mockJob = (id: string, extra: Record<string, unknown> = {}, group: Record<string, unknown> = {}) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: 2, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }], ...group }],
  ...extra,
});

const constraint = (RTarget: string) => ({ LTarget: '${attr.kernel.name}', RTarget, Operand: 'regexp' });

describe('RE2 patterns through the scheduler API', () => {
  let srv: InProcessServer;
  let linux: FakeNode;
  let windows: FakeNode;
  const c = () => srv.client();

  beforeAll(async () => {
    srv = await startInProcessServer({ heartbeatTtlMs: 600_000 });
    linux = fakeNode();
    windows = fakeNode();
    windows.node.Attributes['kernel.name'] = 'windows';
    for (const n of [linux, windows]) await registerFakeNode(c(), n);
  });
  afterAll(() => srv.close());

  it('places a job whose regexp constraint is (?i)LINUX on the node whose kernel.name is linux, and (?i)^WIN on the other', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: mockJob('kernel', { Constraints: [constraint('(?i)LINUX')] }) } });
    const allocs = await until(
      async () => (await c().scheduler<Array<{ NodeID: string }>>('GET', '/v1/job/kernel/allocations')).body,
      (a) => a.length === 2,
      'two allocations of kernel',
    );
    expect(allocs.map((a) => a.NodeID)).toEqual([linux.node.ID, linux.node.ID]);
    await c().scheduler('POST', '/v1/jobs', { body: { Job: mockJob('kernel-win', { Constraints: [constraint('(?i)^WIN')] }) } });
    const win = await until(
      async () => (await c().scheduler<Array<{ NodeID: string }>>('GET', '/v1/job/kernel-win/allocations')).body,
      (a) => a.length === 2,
      'two allocations of kernel-win',
    );
    expect(win.map((a) => a.NodeID)).toEqual([windows.node.ID, windows.node.ID]);
  });

  it('lists jobs whose ID matches "(?i)^WEB"', async () => {
    for (const id of ['web-1', 'WEB-2', 'api']) await c().scheduler('POST', '/v1/jobs', { body: { Job: mockJob(id) } });
    const listed = await c().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { filter: 'ID matches "(?i)^WEB"' } });
    expect(listed.body.map((j) => j.ID).sort()).toEqual(['WEB-2', 'web-1']);
  });

  const refused: [what: string, send: () => Promise<unknown>, message: string][] = [
    [
      'a job constraint',
      () => c().scheduler('POST', '/v1/jobs', { body: { Job: mockJob('bad-constraint', { Constraints: [constraint('(?<=a)b')] }) } }),
      'Constraint 1 validation failed: Regular expression failed to compile: error parsing regexp: invalid or unsupported Perl syntax: `(?<=` (RE2 has no look-behind)',
    ],
    [
      'a group constraint',
      () => c().scheduler('POST', '/v1/jobs', { body: { Job: mockJob('bad-group', {}, { Constraints: [constraint('(a)\\1')] }) } }),
      'Task group g validation failed: Constraint 1 validation failed: Regular expression failed to compile: error parsing regexp: invalid escape sequence: `\\1` (RE2 has no backreferences)',
    ],
    [
      'an affinity',
      () =>
        c().scheduler('POST', '/v1/jobs', {
          body: { Job: mockJob('bad-affinity', { Affinities: [{ LTarget: '${attr.kernel.name}', RTarget: 'a**', Operand: 'regexp', Weight: 50 }] }) },
        }),
      'Affinity 1 validation failed: Regular expression failed to compile: error parsing regexp: invalid nested repetition operator: `**`',
    ],
    [
      'a filter',
      () => c().scheduler('GET', '/v1/jobs', { query: { filter: 'ID matches "[z-a]"' } }),
      'failed to read filter expression: 1:12 (11): invalid regular expression "[z-a]": error parsing regexp: invalid character class range: `z-a`',
    ],
  ];
  it.each(refused)('refuses a pattern RE2 does not accept in %s with a 400 naming it', async (_what, send, message) => {
    const { code, message: got } = await statusOf(send());
    expect(code).toBe(400);
    expect(got).toContain(message);
  });

  it('lists the refusal among the validation errors of /v1/validate/job', async () => {
    const answer = await c().scheduler<{ ValidationErrors: string[] }>('PUT', '/v1/validate/job', {
      body: { Job: mockJob('validate', { Constraints: [constraint('a{1001}')] }) },
    });
    expect(answer.body.ValidationErrors).toContain(
      'Constraint 1 validation failed: Regular expression failed to compile: error parsing regexp: invalid repeat count: `{1001}`',
    );
  });
});
