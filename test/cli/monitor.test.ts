/**
 * The evaluation monitor against a scripted API: the lines it prints as the evaluation and its
 * allocations change, its exit codes, following NextEval, and never waiting on a blocked evaluation.
 */
import { describe, expect, it } from 'vitest';
import { monitorEvaluation } from '../../src/cli/monitor.js';
import { ApiError } from '../../src/shared/errors.js';
import type { Evaluation } from '../../src/api/evals.js';
import type { AllocStub } from '../../src/api/allocs.js';

const EVAL = 'b9c0dff9-0000-4000-8000-000000000001';
const NEXT = 'c0ffee00-0000-4000-8000-000000000002';
const NODE = '44624543-0000-4000-8000-000000000003';

function evaluation(over: Partial<Evaluation> = {}): Evaluation {
  return { ID: EVAL, Namespace: 'default', Priority: 50, Type: 'service', TriggeredBy: 'job-register', JobID: 'example', Status: 'pending', CreateIndex: 10, ModifyIndex: 10, ...over };
}

function stub(id: string, over: Partial<AllocStub> = {}): AllocStub {
  return {
    ID: id,
    EvalID: EVAL,
    Name: 'example.cache[0]',
    Namespace: 'default',
    NodeID: NODE,
    NodeName: 'n',
    JobID: 'example',
    JobType: 'service',
    JobVersion: 0,
    TaskGroup: 'cache',
    DesiredStatus: 'run',
    DesiredDescription: '',
    ClientStatus: 'pending',
    ClientDescription: '',
    TaskStates: null,
    FollowupEvalID: '',
    NextAllocation: '',
    CreateIndex: 11,
    ModifyIndex: 11,
    CreateTime: 0,
    ModifyTime: 0,
    ...over,
  };
}

/** A fake client answering successive polls from a script: one [eval, allocs] pair per poll, per eval ID. */
function scripted(script: Record<string, Array<[Evaluation, AllocStub[]]>>) {
  const polls: Record<string, number> = {};
  const calls: string[] = [];
  const client = {
    async scheduler<T>(_method: string, path: string): Promise<{ body: T; index: number }> {
      calls.push(path);
      const m = /^\/v1\/evaluation\/([^/]+)(\/allocations)?$/.exec(path);
      if (!m || !script[m[1]]) throw new ApiError(404, ['eval not found'], path);
      const id = m[1];
      const steps = script[id];
      if (!m[2]) polls[id] = (polls[id] ?? -1) + 1;
      const step = steps[Math.min(polls[id], steps.length - 1)];
      return { body: (m[2] ? step[1] : step[0]) as T, index: 1 };
    },
  };
  return { client, calls };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

const fixed = () => new Date(Date.UTC(2026, 7, 21, 10, 0, 0));
const opts = { length: 8, now: fixed, sleep: async () => {} };

describe('monitorEvaluation', () => {
  it('prints Nomad\'s lines for a placement and exits 0', async () => {
    const { client } = scripted({
      [EVAL]: [
        [evaluation(), []],
        [evaluation({ Status: 'complete' }), [stub('b38c1107-0000-4000-8000-000000000004')]],
      ],
    });
    const { io, out } = capture();
    const code = await monitorEvaluation({ ...opts, client: client as never, io }, EVAL);
    expect(code).toBe(0);
    expect(out.map((l) => l.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)/, 'T'))).toEqual([
      '==> T: Monitoring evaluation "b9c0dff9"',
      '    T: Evaluation triggered by job "example"',
      '    T: Allocation "b38c1107" created: node "44624543", group "cache"',
      '    T: Evaluation status changed: "pending" -> "complete"',
      '==> T: Evaluation "b9c0dff9" finished with status "complete"',
    ]);
  });

  it('reports failed placements and the blocked evaluation, and exits 2 without waiting for it', async () => {
    const failed = evaluation({
      Status: 'complete',
      BlockedEval: 'b10cked0-0000-4000-8000-000000000005',
      FailedTGAllocs: { cache: { NodesEvaluated: 1, NodesExhausted: 1, DimensionExhausted: { memory: 1 } } },
    });
    const { client } = scripted({ [EVAL]: [[failed, []]] });
    const { io, out } = capture();
    const code = await monitorEvaluation({ ...opts, client: client as never, io }, EVAL);
    expect(code).toBe(2);
    const text = out.join('\n');
    expect(text).toMatch(/==> \S+: Evaluation "b9c0dff9" finished with status "complete" but failed to place all allocations:\n/);
    expect(text).toMatch(/\n {4}\S+: Task Group "cache" \(failed to place 1 allocation\):\n {6}\* Resources exhausted on 1 nodes\n {6}\* Dimension "memory" exhausted on 1 nodes\n/);
    expect(text).toMatch(/\n {4}\S+: Evaluation "b10cked0" waiting for additional capacity to place remainder$/);
  });

  it('follows NextEval, and reports allocation status changes', async () => {
    const a = 'a0000000-0000-4000-8000-000000000006';
    const { client } = scripted({
      [EVAL]: [[evaluation({ Status: 'complete', NextEval: NEXT, Wait: 2e9 }), [stub(a)]]],
      [NEXT]: [
        [evaluation({ ID: NEXT, Status: 'pending', CreateIndex: 20 }), [stub(a, { ClientStatus: 'pending' })]],
        [evaluation({ ID: NEXT, Status: 'complete', CreateIndex: 20 }), [stub(a, { ClientStatus: 'running', ClientDescription: 'Tasks are running' })]],
      ],
    });
    const { io, out } = capture();
    const sleeps: number[] = [];
    const code = await monitorEvaluation({ ...opts, sleep: async (ms) => void sleeps.push(ms), client: client as never, io }, EVAL);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('Monitoring next evaluation "c0ffee00" in 2s');
    expect(sleeps).toContain(2000);
    expect(text).toContain('Monitoring evaluation "c0ffee00"');
    // An allocation created before the next evaluation is "modified" by it.
    expect(text).toContain('Allocation "a0000000" modified: node "44624543", group "cache"');
    expect(text).toContain('Allocation "a0000000" status changed: "pending" -> "running" (Tasks are running)');
    expect(text).toContain('Evaluation "c0ffee00" finished with status "complete"');
  });

  it('returns 2 for a blocked evaluation instead of waiting for capacity', async () => {
    const { client } = scripted({ [EVAL]: [[evaluation({ Status: 'blocked' }), []]] });
    const { io, out } = capture();
    expect(await monitorEvaluation({ ...opts, client: client as never, io }, EVAL)).toBe(2);
    expect(out.at(-1)).toContain('is blocked, waiting for additional capacity');
  });

  it('exits 1 when the evaluation cannot be read', async () => {
    const { client } = scripted({});
    const { io, err } = capture();
    expect(await monitorEvaluation({ ...opts, client: client as never, io }, EVAL)).toBe(1);
    expect(err).toEqual([`No evaluation with id "${EVAL}" found`]);
  });

  it('prints full IDs with length 36', async () => {
    const { client } = scripted({ [EVAL]: [[evaluation({ Status: 'complete' }), []]] });
    const { io, out } = capture();
    await monitorEvaluation({ ...opts, length: 36, client: client as never, io }, EVAL);
    expect(out[0]).toContain(`Monitoring evaluation "${EVAL}"`);
  });
});
