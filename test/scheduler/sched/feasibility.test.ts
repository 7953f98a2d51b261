import { describe, expect, it } from 'vitest';
import type { ArrayData } from '../../../src/scheduler/sched/index.js';
import { checkOperand } from '../../../src/scheduler/sched/operands.js';
import { versionMatches } from '../../../src/scheduler/sched/version.js';
import { makeJob, makeNode, makeNodes, schedule, simpleJob } from './helpers.js';

describe('constraint operands', () => {
  const cases: [string, string | undefined, string | undefined, boolean][] = [
    ['=', 'linux', 'linux', true],
    ['==', 'linux', 'windows', false],
    ['is', 'linux', 'linux', true],
    ['=', undefined, 'linux', false],
    ['!=', 'linux', 'windows', true],
    ['not', 'linux', 'linux', false],
    // Nomad: a missing attribute is "not equal" to any value.
    ['!=', undefined, 'linux', true],
    ['<', '9', '10', true],
    ['<', 'b', 'a', false],
    ['<=', '10', '10', true],
    ['>', '10', '9', true],
    ['>', '10', '9x', false],
    ['>=', '2.5', '2.50', true],
    ['<', '5', undefined, false],
    ['regexp', 'ubuntu-22.04', '^ubuntu-2[0-9]', true],
    ['regexp', 'debian', '^ubuntu', false],
    ['regexp', 'x', '(', false],
    ['regexp', 'Linux', '(?i)^linux$', true],
    ['regexp', 'linux-5', '^[[:alpha:]]+-\\pN$', true],
    ['version', '1.5.2', '>= 1.2, < 2.0', true],
    ['version', '2.0.0', '>= 1.2, < 2.0', false],
    ['version', '1.9', '~> 1.2', true],
    ['version', '2.0', '~> 1.2', false],
    ['version', '1.2.9', '~> 1.2.3', true],
    ['version', '1.3.0', '~> 1.2.3', false],
    ['version', '1.3.0-beta1', '>= 1.2', false],
    ['version', '1.3.0-beta2', '>= 1.3.0-beta1', true],
    ['version', 'not-a-version', '>= 1.0', false],
    ['semver', '1.3.0-beta1', '>= 1.2.0', true],
    ['semver', '1.0.0-alpha', '< 1.0.0', true],
    ['semver', '1.0.0-alpha.2', '> 1.0.0-alpha.10', false],
    ['semver', '1.2.3', '~> 1.2', false],
    ['semver', '1.2.3.4', '>= 1.0', false],
    ['set_contains', 'a, b ,c', 'c,a', true],
    ['set_contains_all', 'a,b', 'a,d', false],
    ['set_contains_any', 'a,b', 'x, b', true],
    ['set_contains_any', 'a,b', 'x,y', false],
    ['is_set', '', undefined, true],
    ['is_set', undefined, undefined, false],
    ['is_not_set', undefined, undefined, true],
    ['is_not_set', 'x', undefined, false],
    ['bogus', 'a', 'a', false],
  ];
  it.each(cases)('%s: %j vs %j → %s', (op, l, r, want) => {
    expect(checkOperand(op, l, r)).toBe(want);
  });

  it('a regexp too slow for the value matches nothing rather than failing the evaluation', () => {
    const value = `${'a'.repeat(15)}1`.repeat(12_500);
    expect(checkOperand('regexp', value, '\\pL{16}')).toBe(false);
    expect(checkOperand('regexp', 'a'.repeat(16), '\\pL{16}')).toBe(true);
  });

  it('go-version constraints compare any number of segments', () => {
    expect(versionMatches('1.2.3.4', '> 1.2.3', false)).toBe(true);
    expect(versionMatches('v1.2', '= 1.2.0', false)).toBe(true);
  });
});

describe('feasibility in the scheduler', () => {
  it('filters nodes without a healthy driver under "missing drivers"', async () => {
    const nodes = [makeNode('ok'), makeNode('nodriver', { drivers: ['docker'] }), makeNode('sick')];
    nodes[2].Drivers.mock.Healthy = false;
    const job = makeJob(simpleJob(1));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place.map((a) => a.NodeID)).toEqual(['id-ok']);
    // Only one node fits, so the search visits all three.
    const metric = r.plan.Place[0].Metrics!;
    expect(metric).toMatchObject({ NodesEvaluated: 3, NodesFiltered: 2, ConstraintFiltered: { 'missing drivers': 2 } });

    const none = await schedule({ jobs: [], allocs: [], nodes: nodes.slice(1) }, makeJob(simpleJob(3)));
    expect(none.plan.Place).toEqual([]);
    expect(none.eval.FailedTGAllocs!.g).toMatchObject({ ConstraintFiltered: { 'missing drivers': 2 }, CoalescedFailures: 2 });
    expect(none.eval.QueuedAllocations).toEqual({ g: 3 });
  });

  it('records a failed constraint under its Nomad string, with the node class', async () => {
    const nodes = [makeNode('lin', { cls: 'small' }), makeNode('win', { cls: 'large', attributes: { 'kernel.name': 'windows' } })];
    const job = makeJob(simpleJob(1, { Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'windows', Operand: '=' }] }));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place.map((a) => a.NodeID)).toEqual(['id-win']);
    expect(r.plan.Place[0].Metrics).toMatchObject({
      ConstraintFiltered: { '${attr.kernel.name} = windows': 1 },
      ClassFiltered: { small: 1 },
    });
  });

  it('checks group and task constraints and literal targets', async () => {
    const nodes = [makeNode('a', { meta: { rack: 'r1' } }), makeNode('b', { meta: { rack: 'r2' } }), makeNode('c')];
    const job = makeJob({
      TaskGroups: [
        {
          Name: 'g',
          Count: 1,
          Constraints: [{ LTarget: '${meta.rack}', RTarget: '', Operand: 'is_set' }],
          Tasks: [{ Name: 't', Driver: 'mock', Constraints: [{ LTarget: '${meta.rack}', RTarget: 'r2', Operand: '=' }] }],
        },
      ],
    });
    for (let i = 0; i < 5; i++) {
      const r = await schedule({ jobs: [], allocs: [], nodes }, job);
      expect(r.plan.Place[0].NodeID).toBe('id-b');
    }
  });

  it('matches datacenters with wildcards and keeps to the node pool', async () => {
    const nodes = [
      makeNode('east', { datacenter: 'us-east-1' }),
      makeNode('west', { datacenter: 'us-west-1' }),
      makeNode('eu', { datacenter: 'eu-1' }),
      makeNode('other-pool', { datacenter: 'us-east-2', pool: 'gpu' }),
      makeNode('down', { datacenter: 'us-east-3', status: 'down' }),
    ];
    const job = makeJob(simpleJob(4, { Datacenters: ['us-*'] }));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    const used = new Set(r.plan.Place.map((a) => a.NodeID));
    expect(used).toEqual(new Set(['id-east', 'id-west']));
    expect(r.plan.Place[0].Metrics!.NodesAvailable).toEqual({ 'us-east-1': 1, 'us-west-1': 1 });

    const all = makeJob(simpleJob(1, { Datacenters: ['us-east-2'], NodePool: 'all' }));
    const r2 = await schedule({ jobs: [], allocs: [], nodes }, all);
    expect(r2.plan.Place[0].NodeID).toBe('id-other-pool');
  });

  it('requires host volumes the group asks for', async () => {
    const nodes = makeNodes(2);
    nodes[1].HostVolumes = { data: { Path: '/srv', ReadOnly: false } };
    const job = makeJob({
      TaskGroups: [{ Name: 'g', Count: 1, Volumes: { d: { Name: 'd', Type: 'host', Source: 'data' } }, Tasks: [{ Name: 't', Driver: 'mock' }] }],
    });
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place[0].NodeID).toBe(nodes[1].ID);
  });
});

describe('distinct constraints', () => {
  it('distinct_hosts: one allocation of the group per node', async () => {
    const job = makeJob(simpleJob(3, { Constraints: [{ LTarget: '', RTarget: 'true', Operand: 'distinct_hosts' }] }));
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(2) };
    const r = await schedule(data, job);
    expect(new Set(r.plan.Place.map((a) => a.NodeID)).size).toBe(2);
    expect(r.eval.FailedTGAllocs!.g.ConstraintFiltered).toEqual({ distinct_hosts: 2 });
  });

  it('distinct_hosts counts the allocations already running', async () => {
    const job = makeJob({
      TaskGroups: [
        { Name: 'g', Count: 2, Constraints: [{ LTarget: '', RTarget: '', Operand: 'distinct_hosts' }], Tasks: [{ Name: 't', Driver: 'mock' }] },
      ],
    });
    const nodes = makeNodes(2);
    const first = await schedule({ jobs: [], allocs: [], nodes }, { ...job, TaskGroups: [{ ...job.TaskGroups[0], Count: 1 }] });
    for (let i = 0; i < 5; i++) {
      const r = await schedule({ jobs: [], allocs: [...first.plan.Place], nodes }, job);
      expect(r.plan.Place).toHaveLength(1);
      expect(r.plan.Place[0].NodeID).not.toBe(first.plan.Place[0].NodeID);
    }
  });

  it('distinct_property: at most RTarget allocations per value', async () => {
    const nodes = [
      makeNode('a', { meta: { rack: 'r1' } }),
      makeNode('b', { meta: { rack: 'r1' } }),
      makeNode('c', { meta: { rack: 'r2' } }),
      makeNode('d', { meta: { rack: 'r2' } }),
      makeNode('e'),
    ];
    const job = makeJob(simpleJob(5, { Constraints: [{ LTarget: '${meta.rack}', RTarget: '2', Operand: 'distinct_property' }] }));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place).toHaveLength(4);
    const racks = r.plan.Place.map((a) => nodes.find((n) => n.ID === a.NodeID)!.Meta.rack);
    expect(racks.filter((x) => x === 'r1')).toHaveLength(2);
    expect(racks.filter((x) => x === 'r2')).toHaveLength(2);
    expect(r.eval.FailedTGAllocs!.g.ConstraintFiltered).toEqual({ distinct_property: 5 });
  });
});

describe('preferences', () => {
  it('affinities pull placements to matching nodes', async () => {
    const nodes = [...makeNodes(4), makeNode('ssd', { meta: { disk: 'ssd' } })];
    const job = makeJob(simpleJob(1, { Affinities: [{ LTarget: '${meta.disk}', RTarget: 'ssd', Operand: '=', Weight: 100 }] }));
    for (let i = 0; i < 5; i++) {
      const r = await schedule({ jobs: [], allocs: [], nodes }, job);
      expect(r.plan.Place[0].NodeID).toBe('id-ssd');
      expect(r.plan.Place[0].Metrics!.ScoreMetaData![0].Scores['node-affinity']).toBe(1);
    }
  });

  it('spread targets split placements across attribute values', async () => {
    const nodes = [...makeNodes(3, { datacenter: 'dc1' }), ...['x', 'y', 'z'].map((n) => makeNode(n, { datacenter: 'dc2' }))];
    const job = makeJob(
      simpleJob(10, {
        Datacenters: ['dc1', 'dc2'],
        Spreads: [{ Attribute: '${node.datacenter}', Weight: 100, SpreadTarget: [{ Value: 'dc1', Percent: 70 }, { Value: 'dc2', Percent: 30 }] }],
      }),
    );
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    const dc1 = r.plan.Place.filter((a) => a.NodeID.startsWith('id-n')).length;
    expect(dc1).toBe(7);
  });

  it('an even spread balances values without targets', async () => {
    const nodes = [...makeNodes(1, { datacenter: 'dc1' }), ...['x', 'y', 'z'].map((n) => makeNode(n, { datacenter: 'dc2' }))];
    const job = makeJob(simpleJob(6, { Datacenters: ['*'], Spreads: [{ Attribute: '${node.datacenter}', Weight: 50 }] }));
    const r = await schedule({ jobs: [], allocs: [], nodes }, job);
    expect(r.plan.Place.filter((a) => a.NodeID === 'id-n0')).toHaveLength(3);
  });
});
