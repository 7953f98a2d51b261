/**
 * The drain monitor of `svc node drain` (src/cli/commands/node/drain-monitor.ts) against scripted API
 * answers, so every line Nomad's MonitorDrain prints is checked in order, and the Drain line of
 * `svc node status`.
 */
import { describe, expect, it } from 'vitest';
import { drainStrategyText, goTimeString, monitorDrain } from '../../src/cli/commands/node/drain-monitor.js';
import { formatDrain } from '../../src/cli/commands/node/status-screen.js';
import type { AllocStub } from '../../src/api/allocs.js';
import type { DrainStrategy, Node } from '../../src/api/nodes.js';
import type { RequestOptions } from '../../src/api/http/client.js';
import { ApiError } from '../../src/shared/errors.js';
import { formatTime } from '../../src/cli/output/nomad.js';

const NODE = '5b4d6db5-0000-4000-8000-000000000001';
const AT = new Date('2030-01-02T03:04:05Z');
const T = formatTime(AT);
const ZERO = '0001-01-01T00:00:00Z';

const strategy = (extra: Partial<DrainStrategy> = {}): DrainStrategy => ({ Deadline: 3600e9, IgnoreSystemJobs: false, ForceDeadline: '2030-01-02T04:04:05.5Z', StartedAt: '2030-01-02T03:04:05Z', ...extra });
const node = (extra: Partial<Node> = {}) => ({ ID: NODE, Status: 'ready', DrainStrategy: strategy(), ...extra }) as Node;
const alloc = (id: string, extra: Partial<AllocStub> = {}) =>
  ({ ID: id, JobType: 'service', ClientStatus: 'running', DesiredStatus: 'run', DesiredTransition: { Migrate: null }, CreateIndex: 1, ...extra }) as AllocStub;

type Answer = unknown | Error;

/**
 * A client answering the node and its allocations from two scripts, one answer per request, with the
 * index of the answer's position. A request past the end of its script waits until it is cancelled.
 */
function scripted(nodes: Answer[], allocs: Answer[]) {
  const seen: Array<{ path: string; index: unknown }> = [];
  const scripts = { node: [...nodes], allocs: [...allocs] };
  const counters = { node: 0, allocs: 0 };
  return {
    seen,
    client: {
      async scheduler<T>(_method: string, path: string, opts: RequestOptions = {}): Promise<{ body: T; index: number }> {
        seen.push({ path, index: opts.query?.index });
        const which = path.endsWith('/allocations') ? 'allocs' : 'node';
        const next = scripts[which].shift();
        if (next === undefined) {
          return new Promise((_resolve, reject) => opts.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
        }
        if (next instanceof Error) throw next;
        return { body: next as T, index: 100 + ++counters[which] };
      },
    },
  };
}

async function run(nodes: Answer[], allocs: Answer[], ignoreSystem = false) {
  const out: string[] = [];
  const err: string[] = [];
  const api = scripted(nodes, allocs);
  await monitorDrain({ client: api.client, io: { out: (l) => out.push(l), err: (l) => err.push(l) }, nodeId: NODE, index: 42, ignoreSystem, now: () => AT });
  return { out, err, seen: api.seen };
}

describe('monitorDrain', () => {
  it('prints each allocation change and ends once the drain is complete and every allocation has stopped', async () => {
    const { out, err, seen } = await run(
      [node(), node({ DrainStrategy: null })],
      [
        [alloc('a1'), alloc('a2', { CreateIndex: 2 })],
        [alloc('a1', { DesiredTransition: { Migrate: true } }), alloc('a2', { CreateIndex: 2 })],
        [alloc('a1', { DesiredTransition: { Migrate: true }, DesiredStatus: 'stop' }), alloc('a2', { CreateIndex: 2, ClientStatus: 'complete' })],
        [alloc('a1', { DesiredTransition: { Migrate: true }, DesiredStatus: 'stop', ClientStatus: 'complete' }), alloc('a2', { CreateIndex: 2, ClientStatus: 'complete' })],
      ],
    );
    expect(err).toEqual([]);
    expect(out.filter((l) => l.includes('Alloc') || l.includes('All allocations'))).toEqual([
      `${T}: Alloc "a1" marked for migration`,
      `${T}: Alloc "a2" status running -> complete`,
      `${T}: Alloc "a1" draining`,
      `${T}: Alloc "a1" status running -> complete`,
      `${T}: All allocations on node "${NODE}" have stopped`,
    ]);
    expect(out).toContain(`${T}: Drain complete for node ${NODE}`);
    // The node is followed from the drain's index on, then from each answer's; allocations first without one.
    expect(seen.filter((s) => !s.path.endsWith('/allocations')).map((s) => s.index)).toEqual([42, 101]);
    expect(seen.filter((s) => s.path.endsWith('/allocations')).map((s) => s.index)).toEqual([undefined, 101, 102, 103]);
  });

  it('warns while the node is down and tells when the drain strategy changes', async () => {
    const changed = strategy({ Deadline: -1e9, ForceDeadline: ZERO, IgnoreSystemJobs: true });
    const { out, err } = await run([node(), node({ Status: 'down', DrainStrategy: changed }), node({ DrainStrategy: null })], [[]]);
    expect(err).toEqual([`${T}: Node "${NODE}" down`]);
    expect(out).toContain(`${T}: Node "${NODE}" drain updated: drain ignoring system jobs and deadline at 0001-01-01 00:00:00 +0000 UTC`);
    expect(out).toContain(`${T}: All allocations on node "${NODE}" have stopped`);
  });

  it('does not wait for system allocations with -ignore-system', async () => {
    const system = alloc('s1', { JobType: 'system' });
    const ignoring = await run([node({ DrainStrategy: null })], [[system]], true);
    expect(ignoring.out).toContain(`${T}: All allocations on node "${NODE}" have stopped`);
    const waiting = await run([node({ DrainStrategy: null })], [[system], [{ ...system, ClientStatus: 'complete' }]]);
    expect(waiting.out.filter((l) => l.includes('s1') || l.includes('All allocations'))).toEqual([
      `${T}: Alloc "s1" status running -> complete`,
      `${T}: All allocations on node "${NODE}" have stopped`,
    ]);
  });

  it('stops following both on an error, which goes to stderr', async () => {
    const { out, err } = await run([new ApiError(500, ['boom'], 'http://x')], [[alloc('a1')]]);
    expect(err).toEqual([`${T}: Error monitoring node: Unexpected response code: 500 (boom)`]);
    expect(out).toEqual([]);
  });
});

describe('drain texts', () => {
  it("prints times as Go's time.Time String() does", () => {
    expect(goTimeString('2030-01-02T04:04:05.5Z')).toBe('2030-01-02 04:04:05.5 +0000 UTC');
    expect(goTimeString('2030-01-02T04:04:05+02:00')).toBe('2030-01-02 04:04:05 +0200 +0200');
    expect(goTimeString(ZERO)).toBe('0001-01-01 00:00:00 +0000 UTC');
    expect(drainStrategyText(strategy())).toBe('drain with deadline at 2030-01-02 04:04:05.5 +0000 UTC');
  });

  it("shows the node's Drain line as Nomad's node status", () => {
    expect(formatDrain({ DrainStrategy: null })).toBe('false');
    expect(formatDrain({ DrainStrategy: strategy() })).toBe(`true; ${formatTime(new Date('2030-01-02T04:04:05.5Z'))} deadline`);
    expect(formatDrain({ DrainStrategy: strategy({ Deadline: 0, ForceDeadline: ZERO, IgnoreSystemJobs: true }) })).toBe('true; no deadline; ignoring system jobs');
    expect(formatDrain({ DrainStrategy: strategy({ Deadline: -1e9, ForceDeadline: ZERO }) })).toBe('true; force drain');
  });
});
