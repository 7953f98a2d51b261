/**
 * An allocation event's payload spliced from the stored text (alloc-payload.ts) is, character for
 * character, what parsing the record and writing the REST view again gives: on the records a real
 * server wrote while placing, reporting on, rescheduling and stopping allocations, and on a few thousand
 * made from them with fields at and off their zero values, odd strings and extra fields. A text the
 * splicing cannot vouch for (a `\u` escape, whitespace, a member name parsing would move) takes the slow
 * way and still gives the same event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocFull } from '../../../src/scheduler/http/alloc-view.js';
import { allocPayload } from '../../../src/scheduler/events/alloc-payload.js';
import { eventOf } from '../../../src/scheduler/events/events.js';
import { packAlloc, readAlloc } from '../../../src/scheduler/state/alloc-record.js';
import { ALLOCS_TABLE } from '../../../src/scheduler/state/allocs.js';
import { newTaskEvent, zeroAllocation, type Allocation, type TaskState } from '../../../src/scheduler/structs/allocation.js';
import { newMetric } from '../../../src/scheduler/sched/metrics.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { until } from '../../support/wait.js';

/** The payload as the event stream made it before: the record parsed, read back and shown as the REST view without its job. */
function slowPayload(text: string): string {
  return `{"Allocation":${JSON.stringify(allocFull(readAlloc(JSON.parse(text)), null))}}`;
}

function eventPayload(text: string): { payload: string; key: string; namespace: string; filterKeys: string[] | null } {
  const e = eventOf({ index: 7, kind: 'ApplyPlanResults' }, { topic: 'Allocation', table: ALLOCS_TABLE, key: 'k', text })!;
  return { payload: e.payload, key: e.key, namespace: e.namespace, filterKeys: e.filterKeys };
}

/** A small deterministic generator, so that a failure is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'plain', 'q"uote', 'back\\slash', 'new\nline and\ttab', 'ünïcødé ✓', '😀 emoji', 'a/b', 'trailing\\'];
/** Strings JSON.stringify writes with a `\u` escape: such a record is parsed. */
const ESCAPED = ['\u0001 control', 'lone \ud800 surrogate'];

describe('allocation event payloads spliced from the stored record', () => {
  let srv: InProcessServer;
  const stored: string[] = [];

  beforeAll(async () => {
    srv = await startInProcessServer();
    const stop = srv.server.services.store.follow(new Set([ALLOCS_TABLE]), (w) => {
      for (const [table, , text] of w.changes) if (table === ALLOCS_TABLE && text !== null) stored.push(text);
    });
    try {
      await placeReportAndStop(srv);
    } finally {
      stop();
    }
  });
  afterAll(async () => srv?.close());

  it('are the slow way’s text for every record a server wrote', () => {
    expect(stored.length).toBeGreaterThanOrEqual(15);
    const shapes = stored.map((t) => readAlloc(JSON.parse(t)));
    // The records cover what the splicing treats apart: metrics with packed scores, task states with events, reschedules, stops.
    expect(shapes.some((a) => (a.Metrics?.ScoreMetaData?.length ?? 0) > 0)).toBe(true);
    expect(shapes.some((a) => Object.values(a.TaskStates ?? {}).some((s) => s.Events.length > 0))).toBe(true);
    expect(shapes.some((a) => a.PreviousAllocation !== '' && a.RescheduleTracker !== null)).toBe(true);
    expect(shapes.some((a) => a.DesiredStatus === 'stop')).toBe(true);
    expect(shapes.some((a) => a.DeploymentID !== '' && a.DeploymentStatus?.Healthy === true)).toBe(true);
    for (const text of stored) {
      const spliced = allocPayload(text);
      expect(spliced, text).toBeDefined();
      const a = readAlloc(JSON.parse(text));
      expect(spliced!.payload).toBe(slowPayload(text));
      expect([spliced!.id, spliced!.namespace, spliced!.jobId, spliced!.deploymentId]).toEqual([a.ID, a.Namespace, a.JobID, a.DeploymentID]);
      expect(eventPayload(text)).toEqual({ payload: slowPayload(text), key: a.ID, namespace: a.Namespace, filterKeys: [a.JobID, a.DeploymentID] });
    }
  });

  it('are the slow way’s text for thousands of records made from them, and only an unusual text is parsed', () => {
    const next = random(30);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const bases = stored.map((t) => readAlloc(JSON.parse(t)));
    let spliced = 0;
    for (let n = 0; n < 3000; n++) {
      const alloc = vary(structuredClone(pick(bases)), next, pick);
      // Half packed as the store writes them, half whole (a record written before packing).
      const form = next() < 0.5 ? packAlloc(alloc) : alloc;
      const text = JSON.stringify(form);
      const parsedOnly = text.includes('\\u') || '5' in form;
      const fast = allocPayload(text);
      if (parsedOnly) expect(fast, text).toBeUndefined();
      else {
        expect(fast, text).toBeDefined();
        spliced++;
      }
      const expected = slowPayload(text);
      if (fast) expect(fast.payload).toBe(expected);
      expect(eventPayload(text).payload).toBe(expected);
    }
    expect(spliced).toBeGreaterThan(2000);
  });

  it('parse a text with whitespace between its tokens, giving the same event', () => {
    for (const text of stored.slice(0, 10)) {
      const spaced = JSON.stringify(JSON.parse(text), null, 1);
      expect(allocPayload(spaced)).toBeUndefined();
      expect(eventPayload(spaced).payload).toBe(slowPayload(text));
    }
  });
});

/**
 * Changes a few of the allocation's fields at random: to their zero value or off it, strings to odd
 * ones (some that JSON.stringify escapes as `\u`), the metric and task states to their edge cases, extra
 * fields (one named as an array index).
 */
function vary(a: Allocation, next: () => number, pick: <T>(list: readonly T[]) => T): Allocation {
  const fields = a as unknown as Record<string, unknown>;
  const zero = zeroAllocation() as unknown as Record<string, unknown>;
  const names = Object.keys(zero);
  for (let k = 0, changes = 1 + Math.floor(next() * 4); k < changes; k++) {
    const name = pick(names);
    const r = next();
    if (r < 0.35) fields[name] = structuredClone(zero[name]);
    else if (typeof zero[name] === 'string') {
      fields[name] = r < 0.4 ? pick(ESCAPED) : pick(STRINGS);
    } else if (typeof zero[name] === 'number') fields[name] = pick([0, 1, -3, 2.5, 1e21, 2 ** 53 + 2, Date.now() * 1_000_000]);
    else if (name === 'DesiredTransition') fields[name] = { ...a.DesiredTransition, Migrate: pick([null, true, false]) };
    else if (name === 'RescheduleTracker') fields[name] = pick([null, { Events: null, LastReschedule: 'ok' }, { Events: [{ RescheduleTime: 5, PrevAllocID: 'p', PrevNodeID: 'n', Delay: 30 }], LastReschedule: '' }]);
    else if (name === 'NetworkStatus') fields[name] = pick([null, { InterfaceName: 'eth0', Address: '10.0.0.2', AddressIPv6: '', DNS: null }]);
  }
  const m = next();
  if (m < 0.15) a.Metrics = null;
  else if (m < 0.3) a.Metrics = newMetric('', {}, 0);
  else if (m < 0.4 && a.Metrics) a.Metrics = { ...a.Metrics, ScoreMetaData: null, NodesAvailable: { dc1: 3, 'dc-2': 1 }, ClassFiltered: { x: 1 } };
  else if (m < 0.45 && a.Metrics) a.Metrics = { ...a.Metrics, ScoreMetaData: [] };
  else if (m < 0.55 && a.Metrics) {
    // Nodes scored by different scorers, in different orders: packed, the rows hold nulls.
    a.Metrics = {
      ...a.Metrics,
      ScoreMetaData: [
        { NodeID: 'n1', Scores: { binpack: 0.125 }, NormScore: 0.125 },
        { NodeID: 'n2', Scores: { 'job-anti-affinity': -1, binpack: 0.1 }, NormScore: -0.45 },
        { NodeID: 'n3', Scores: { 'node-affinity': 1 / 3 }, NormScore: 1 / 3 },
      ],
    };
  }
  const t = next();
  if (t < 0.1) a.TaskStates = null;
  else if (t < 0.2) a.TaskStates = {};
  else if (t < 0.4) a.TaskStates = { app: taskState(next, pick), 'side car': taskState(next, pick) };
  else if (t < 0.45) {
    a.TaskStates = { app: taskState(next, pick) };
    a.TaskStates.app.Events = null as unknown as TaskState['Events'];
  } else if (t < 0.5) a.TaskStates = { app: { ...taskState(next, pick), Events: [newTaskEvent('Driver Failure', { DriverError: pick(ESCAPED) })] } };
  const x = next();
  if (x < 0.05) a.DeploymentStatus = null;
  else if (x < 0.1) a.DeploymentStatus = { Healthy: null, Timestamp: '', Canary: true, ModifyIndex: 0 };
  else if (x < 0.15) fields.Extra = pick([0, '', 'kept', { nested: [1, 'a'] }, null, false, true]);
  else if (x < 0.2) fields.Job = { ID: 'dropped' };
  else if (x < 0.25) {
    fields.Resources = { CPU: 100 };
    fields.TaskResources = {};
  } else if (x < 0.28) fields['5'] = 'an index name';
  else if (x < 0.3 && a.Metrics) {
    (a.Metrics as unknown as Record<string, unknown>).Extra = { kept: true };
  }
  return a;
}

function taskState(next: () => number, pick: <T>(list: readonly T[]) => T): TaskState {
  const events = Array.from({ length: Math.floor(next() * 4) }, () => {
    const event = newTaskEvent(pick(['Received', 'Task Setup', 'Started', 'Terminated']), {
      Message: pick(STRINGS),
      Details: next() < 0.5 ? {} : { 'exit code': '0', note: pick(STRINGS) },
      ExitCode: pick([0, 1, 137]),
      FailsTask: next() < 0.2,
    });
    // A field of no zero value (a newer node's), which reading keeps after the others.
    return next() < 0.2 ? { ...event, Annotations: { by: pick(STRINGS) } } : event;
  });
  return { State: pick(['pending', 'running', 'dead'] as const), Failed: next() < 0.2, Restarts: pick([0, 2]), LastRestart: '0001-01-01T00:00:00Z', StartedAt: '2026-01-02T03:04:05.5Z', FinishedAt: '0001-01-01T00:00:00Z', Events: events, Paused: '' };
}

/**
 * Real records of every kind the splicing must get right: placements with scores (several nodes), a
 * deployment's allocations reporting healthy, task states with events, a failed allocation replaced by
 * a rescheduled one, and a job stopped.
 */
async function placeReportAndStop(srv: InProcessServer): Promise<void> {
  const root = srv.client();
  const nodes: FakeNode[] = [fakeNode(), fakeNode(), fakeNode()];
  for (const n of nodes) await registerFakeNode(root, n);
  const task = { Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 50, MemoryMB: 32 } };
  const web = {
    ID: 'web',
    Type: 'service',
    Datacenters: ['dc1'],
    Update: { MaxParallel: 2, HealthCheck: 'task_states', MinHealthyTime: 0, HealthyDeadline: 60_000_000_000 },
    TaskGroups: [
      { Name: 'front', Count: 3, Tasks: [task], Networks: [{ DynamicPorts: [{ Label: 'http' }] }] },
      { Name: 'back', Count: 2, Tasks: [task], ReschedulePolicy: { Attempts: 3, Interval: 3_600_000_000_000, Delay: 5_000_000_000, DelayFunction: 'constant', Unlimited: false } },
    ],
  };
  await root.scheduler('POST', '/v1/jobs', { body: { Job: web } });
  await root.scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'once', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'b', Count: 2, Tasks: [task] }] } } });
  type Stub = { ID: string; NodeID: string; TaskGroup: string; ClientStatus: string };
  const allocsOf = async (job: string) => (await root.scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;
  const placed = await until(() => allocsOf('web'), (list) => list.length === 5, "web's five allocations");
  await until(() => allocsOf('once'), (list) => list.length === 2, "once's two allocations");

  const running = (events: string[]): TaskState => ({
    State: 'running',
    Failed: false,
    Restarts: 0,
    LastRestart: '0001-01-01T00:00:00Z',
    StartedAt: '2026-01-02T03:04:05.123Z',
    FinishedAt: '0001-01-01T00:00:00Z',
    Events: events.map((type) => newTaskEvent(type, { Message: `${type} "quoted"`, Details: { step: type } })),
    Paused: '',
  });
  const report = async (a: Stub, body: Record<string, unknown>) => {
    const n = nodes.find((x) => x.node.ID === a.NodeID)!;
    await srv.client(n.secret).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, { body: { Allocs: [{ ID: a.ID, ClientDescription: '', ...body }] } });
  };
  for (const a of placed) {
    await report(a, { ClientStatus: 'running', TaskStates: { app: running(['Received', 'Task Setup', 'Started']) }, DeploymentStatus: { Healthy: true, Timestamp: '2026-01-02T03:04:06Z' } });
  }
  const back = placed.find((a) => a.TaskGroup === 'back')!;
  const dead: TaskState = { ...running(['Started', 'Terminated']), State: 'dead', Failed: true, FinishedAt: '2026-01-02T03:05:00Z' };
  await report(back, { ClientStatus: 'failed', ClientDescription: 'Failed tasks', TaskStates: { app: dead } });
  await until(() => allocsOf('web'), (list) => list.length === 6, 'the failed allocation replaced');
  await root.scheduler('DELETE', '/v1/job/once');
  await until(
    async () => (await root.scheduler<Array<{ DesiredStatus: string }>>('GET', '/v1/job/once/allocations')).body,
    (list) => list.every((a) => a.DesiredStatus === 'stop'),
    "once's allocations stopped",
  );
}
