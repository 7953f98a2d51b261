/**
 * The Nomad screen helpers of the scheduler commands, without a server: relative times, sizes, the
 * allocation and evaluation tables, the placement-failure bullets, and the eval, alloc and node screens.
 */
import { describe, expect, it } from 'vitest';
import {
  allocListTable,
  evalFailureStatus,
  evalListTable,
  failedPlacementHeading,
  formatAllocMetrics,
  formatKV,
  formatTaskTime,
  humanIBytes,
  limit,
  prettyTimeDiff,
  type AllocRow,
} from '../../src/cli/output/nomad.js';
import { formatEvalStatus } from '../../src/cli/commands/eval/status-screen.js';
import { addressesSection, eventMessage, formatAllocStatus } from '../../src/cli/commands/alloc/status-screen.js';
import { allocatedResources, driverStatus, formatNode } from '../../src/cli/commands/node/status-screen.js';
import { nodeListTable } from '../../src/cli/resolve/node.js';
import { placementFailureSection, deploymentSection } from '../../src/cli/commands/job/status-screen.js';
import type { Allocation } from '../../src/api/allocs.js';
import type { Evaluation } from '../../src/api/evals.js';
import type { Node } from '../../src/api/nodes.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ns = (ms: number) => ms * 1e6;

describe('prettyTimeDiff', () => {
  it('keeps the two largest units, as Nomad', () => {
    expect(prettyTimeDiff(NOW - 3_000, NOW)).toBe('3s ago');
    expect(prettyTimeDiff(NOW - 90_000, NOW)).toBe('1m30s ago');
    expect(prettyTimeDiff(NOW - 60_000, NOW)).toBe('1m ago');
    expect(prettyTimeDiff(NOW - 3_600_000, NOW)).toBe('1h ago');
    expect(prettyTimeDiff(NOW - 3_661_000, NOW)).toBe('1h1m ago');
    expect(prettyTimeDiff(NOW - (26 * 3600 + 5) * 1000, NOW)).toBe('1d2h ago');
    expect(prettyTimeDiff(NOW - 40 * 86_400_000, NOW)).toBe('1mo10d ago');
    expect(prettyTimeDiff(NOW - 400 * 86_400_000, NOW)).toBe('1y1mo ago');
  });

  it('rounds to the second, says "from now" for the future and "" for a zero time', () => {
    expect(prettyTimeDiff(NOW - 400, NOW)).toBe('0s ago');
    expect(prettyTimeDiff(NOW + 25_000, NOW)).toBe('25s from now');
    expect(prettyTimeDiff(0, NOW)).toBe('');
  });
});

describe('small formatters', () => {
  it('prints IEC sizes as go-humanize', () => {
    expect(humanIBytes(300 * 1024 * 1024)).toBe('300 MiB');
    expect(humanIBytes(1024 * 1024 * 1024)).toBe('1.0 GiB');
    expect(humanIBytes(1536)).toBe('1.5 KiB');
    expect(humanIBytes(9)).toBe('9 B');
  });

  it('truncates IDs, prints key/value blocks and task times', () => {
    expect(limit('b9c0dff9-1234-5678-9abc-def012345678', 8)).toBe('b9c0dff9');
    expect(limit('', 8)).toBe('');
    expect(formatKV([['ID', 'x'], ['Description', '']])).toBe('ID          = x\nDescription = <none>\n');
    expect(formatTaskTime('0001-01-01T00:00:00Z')).toBe('N/A');
    expect(formatTaskTime('')).toBe('N/A');
  });
});

describe('placement failures', () => {
  it('prints one bullet per reason, keys sorted', () => {
    const text = formatAllocMetrics(
      {
        NodesEvaluated: 3,
        NodesAvailable: { dc1: 3, dc2: 0 },
        ClassFiltered: { gpu: 1 },
        ConstraintFiltered: { 'missing drivers': 2, '${attr.kernel.name} = windows': 1 },
        NodesExhausted: 1,
        DimensionExhausted: { memory: 1 },
      },
      false,
      '  ',
    );
    expect(text).toBe(
      [
        '  * No nodes are available in datacenter "dc2"',
        '  * Class "gpu": 1 nodes excluded by filter',
        '  * Constraint "${attr.kernel.name} = windows": 1 nodes excluded by filter',
        '  * Constraint "missing drivers": 2 nodes excluded by filter',
        '  * Resources exhausted on 1 nodes',
        '  * Dimension "memory" exhausted on 1 nodes',
      ].join('\n'),
    );
    expect(formatAllocMetrics({ NodesEvaluated: 0 }, false, '')).toBe('* No nodes were eligible for evaluation');
  });

  it('names the group and how many allocations failed', () => {
    expect(failedPlacementHeading('cache', { CoalescedFailures: 0 })).toBe('Task Group "cache" (failed to place 1 allocation):');
    expect(failedPlacementHeading('cache', { CoalescedFailures: 2 })).toBe('Task Group "cache" (failed to place 3 allocations):');
  });

  it('prints the score table with -verbose', () => {
    const text = formatAllocMetrics(
      { NodesEvaluated: 1, ScoreMetaData: [{ NodeID: 'n1', Scores: { binpack: 0.123456, 'job-anti-affinity': 0 }, NormScore: 0.5 }] },
      true,
      '  ',
    );
    expect(text).toBe('Node  binpack  job-anti-affinity  final score\nn1    0.123    0                  0.5');
  });

  it('shows the job status Placement Failure section only while a blocked evaluation waits', () => {
    const failed: Evaluation = { ID: 'e1', Namespace: 'default', Priority: 50, Type: 'service', TriggeredBy: 'job-register', JobID: 'j', Status: 'complete', CreateIndex: 10, ModifyIndex: 11, FailedTGAllocs: { web: { NodesEvaluated: 1, NodesExhausted: 1, DimensionExhausted: { memory: 1 } } } };
    const blocked: Evaluation = { ...failed, ID: 'e2', Status: 'blocked', FailedTGAllocs: undefined, CreateIndex: 11 };
    expect(placementFailureSection([failed])).toBe('');
    expect(placementFailureSection([blocked, failed])).toBe('\nPlacement Failure\nTask Group "web":\n  * Resources exhausted on 1 nodes\n  * Dimension "memory" exhausted on 1 nodes\n');
  });
});

const alloc = (over: Partial<AllocRow> = {}): AllocRow => ({
  ID: 'a1b2c3d4-0000-4000-8000-000000000001',
  EvalID: 'e1e2e3e4-0000-4000-8000-000000000001',
  NodeID: 'n1n2n3n4-0000-4000-8000-000000000001',
  NodeName: 'node-1',
  TaskGroup: 'cache',
  JobVersion: 0,
  DesiredStatus: 'run',
  ClientStatus: 'running',
  CreateTime: ns(NOW - 90_000),
  ModifyTime: ns(NOW - 3_000),
  ...over,
});

describe('allocation and evaluation tables', () => {
  it('prints the allocation list with short IDs and relative times', () => {
    expect(allocListTable([alloc()], false, NOW)).toBe(
      'ID        Node ID   Task Group  Version  Desired  Status   Created    Modified\n' + 'a1b2c3d4  n1n2n3n4  cache       0        run      running  1m30s ago  3s ago\n',
    );
    expect(allocListTable([], false, NOW)).toBe('No allocations placed\n');
  });

  it('adds the eval and node name and absolute times with -verbose', () => {
    const text = allocListTable([alloc()], true, NOW);
    const [head, row] = text.trimEnd().split('\n');
    expect(head.split(/ {2,}/)).toEqual(['ID', 'Eval ID', 'Node ID', 'Node Name', 'Task Group', 'Version', 'Desired', 'Status', 'Created', 'Modified']);
    expect(row).toContain('a1b2c3d4-0000-4000-8000-000000000001');
    expect(row).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  });

  it('prints the evaluation list and placement failure column', () => {
    const e = { ID: 'e1e2e3e4-0000', Priority: 50, TriggeredBy: 'job-register', JobID: 'web', Namespace: 'default', Status: 'complete', FailedTGAllocs: { g: {} } };
    expect(evalListTable([e], false)).toBe(
      'ID        Priority  Triggered By  Job ID  Namespace  Node ID  Status    Placement Failures\n' + 'e1e2e3e4  50        job-register  web     default    <none>   complete  true\n',
    );
    expect(evalFailureStatus({ Status: 'blocked', FailedTGAllocs: null }).text).toBe('N/A - In Progress');
  });
});

describe('eval status screen', () => {
  const base: Evaluation = {
    ID: '5e8f3a2c-1111-4222-8333-444455556666',
    Namespace: 'default',
    Priority: 50,
    Type: 'service',
    TriggeredBy: 'job-register',
    JobID: 'web',
    Status: 'complete',
    CreateIndex: 10,
    ModifyIndex: 12,
    CreateTime: ns(NOW - 5_000),
    ModifyTime: ns(NOW - 4_000),
  };

  it('prints the key/value block', () => {
    expect(formatEvalStatus(base, false, NOW)).toBe(
      [
        'ID                 = 5e8f3a2c',
        'Create Time        = 5s ago',
        'Modify Time        = 4s ago',
        'Status             = complete',
        'Status Description = complete',
        'Type               = service',
        'TriggeredBy        = job-register',
        'Job ID             = web',
        'Namespace          = default',
        'Priority           = 50',
        'Placement Failures = false',
        '',
      ].join('\n'),
    );
  });

  it('lists failed placements per group and the blocked evaluation', () => {
    const text = formatEvalStatus(
      { ...base, BlockedEval: 'b10cked0-0000-4000-8000-000000000000', FailedTGAllocs: { web: { NodesEvaluated: 1, NodesExhausted: 1, DimensionExhausted: { memory: 1 }, CoalescedFailures: 1 } } },
      false,
      NOW,
    );
    expect(text).toContain('Placement Failures = true\n');
    expect(text).toContain(
      '\nFailed Placements\nTask Group "web" (failed to place 2 allocations):\n  * Resources exhausted on 1 nodes\n  * Dimension "memory" exhausted on 1 nodes\n\nEvaluation "b10cked0" waiting for additional capacity to place remainder\n',
    );
  });
});

describe('alloc status screen', () => {
  const full: Allocation = {
    ID: 'a1b2c3d4-0000-4000-8000-000000000001',
    EvalID: 'e1e2e3e4-0000-4000-8000-000000000001',
    Name: 'web.cache[0]',
    NodeID: 'n1n2n3n4-0000-4000-8000-000000000001',
    NodeName: 'node-1',
    JobID: 'web',
    TaskGroup: 'cache',
    DesiredStatus: 'run',
    ClientStatus: 'running',
    ClientDescription: 'Tasks are running',
    CreateTime: ns(NOW - 90_000),
    ModifyTime: ns(NOW - 3_000),
    Job: { Version: 2, TaskGroups: [{ Name: 'cache', Tasks: [{ Name: 'redis' }] }] },
    AllocatedResources: {
      Tasks: { redis: { Cpu: { CpuShares: 100 }, Memory: { MemoryMB: 300, MemoryMaxMB: 0 } } },
      Shared: { DiskMB: 300, Ports: [{ Label: 'db', Value: 23456, To: 6379, HostIP: '127.0.0.1' }], Networks: [{ Mode: 'host' }] },
    },
    TaskStates: {
      redis: {
        State: 'running',
        Failed: false,
        Restarts: 0,
        LastRestart: '0001-01-01T00:00:00Z',
        StartedAt: '2026-03-01T11:58:31Z',
        FinishedAt: '0001-01-01T00:00:00Z',
        Events: [
          { Type: 'Received', Time: ns(NOW - 90_000), DisplayMessage: 'Task received by client' },
          { Type: 'Started', Time: ns(NOW - 89_000), DisplayMessage: 'Task started by client' },
        ],
      },
    },
  };

  it('prints the header, addresses, and per task its resources and events, newest first', () => {
    const text = formatAllocStatus(full, { verbose: false, short: false, nowMs: NOW });
    expect(text).toContain('ID                  = a1b2c3d4-0000-4000-8000-000000000001\nEval ID             = e1e2e3e4\n');
    expect(text).toContain('Job Version         = 2\n');
    expect(text).toContain('Created             = 1m30s ago\nModified            = 3s ago\n');
    expect(text).toContain('\nAllocation Addresses (mode = "host"):\nLabel  Dynamic  Address\n*db    yes      127.0.0.1:23456 -> 6379\n');
    expect(text).toContain('\nTask "redis" is "running"\nTask Resources:\nCPU      Memory   Disk     Addresses\n100 MHz  300 MiB  300 MiB\n\nTask Events:\n');
    expect(text).toContain('Finished At    = N/A\nTotal Restarts = 0\nLast Restart   = N/A\n');
    const events = text.slice(text.indexOf('Recent Events:')).split('\n');
    expect(events[1]).toMatch(/^Time +Type +Description$/);
    expect(events[2]).toMatch(/Started +Task started by client$/);
    expect(events[3]).toMatch(/Received +Task received by client$/);
  });

  it('-short prints the Tasks table instead', () => {
    const text = formatAllocStatus(full, { verbose: false, short: true, nowMs: NOW });
    expect(text.startsWith('ID       = a1b2c3d4-0000-4000-8000-000000000001\nName     = web.cache[0]\nCreated  = 1m30s ago\nModified = 3s ago\n\nTasks\n')).toBe(true);
    expect(text).toMatch(/\nredis +running +Started +\S+ +main\n$/);
  });

  it('-verbose adds the placement metrics', () => {
    const text = formatAllocStatus({ ...full, Metrics: { NodesEvaluated: 1 } }, { verbose: true, short: false, nowMs: NOW });
    expect(text).toContain('Evaluated Nodes     = 1\n');
    expect(text).toContain('\nPlacement Metrics\n');
  });

  it('prints no addresses section without ports, and builds messages from legacy fields', () => {
    expect(addressesSection({ ID: 'x' })).toBe('');
    expect(eventMessage({ Type: 'Terminated', Time: 0, ExitCode: 1, Signal: 0 })).toBe('Exit Code: 1');
    expect(eventMessage({ Type: 'Started', Time: 0 })).toBe('Task started by client');
  });
});

describe('node screens', () => {
  const node: Node = {
    ID: '4f1c2d3e-0000-4000-8000-000000000001',
    Name: 'node-1',
    Datacenter: 'dc1',
    NodePool: 'default',
    NodeClass: '',
    HTTPAddr: '127.0.0.1:4646',
    Attributes: { 'kernel.name': 'linux' },
    Meta: {},
    NodeResources: { Cpu: { CpuShares: 4000 }, Memory: { MemoryMB: 8192 }, Disk: { DiskMB: 10000 } },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 } },
    Drivers: {
      mock: { Detected: true, Healthy: true, HealthDescription: 'Healthy', UpdateTime: '2026-03-01T11:00:00Z' },
      docker: { Detected: false, Healthy: false, HealthDescription: '', UpdateTime: '0001-01-01T00:00:00Z' },
      raw_exec: { Detected: true, Healthy: false, HealthDescription: 'broken', UpdateTime: '2026-03-01T11:00:00Z' },
    },
    HostVolumes: null,
    Status: 'ready',
    StatusDescription: '',
    SchedulingEligibility: 'eligible',
    DrainStrategy: null,
    Events: [{ Message: 'Node registered', Subsystem: 'Cluster', Details: null, Timestamp: '2026-03-01T11:00:00Z' }],
    CreateIndex: 1,
    ModifyIndex: 2,
  };

  it('lists nodes and their drivers', () => {
    expect(
      nodeListTable(
        [{ ...node, Address: '127.0.0.1', Version: '0.1.0', Drain: false, Drivers: null }],
        false,
      ),
    ).toBe('ID        Node Pool  DC   Name    Class   Drain  Eligibility  Status\n4f1c2d3e  default    dc1  node-1  <none>  false  eligible     ready\n');
    expect(driverStatus(node.Drivers)).toBe('mock,raw_exec (unhealthy)');
  });

  it('prints one node with its allocated resources and allocations', () => {
    const running: Allocation = { ID: 'a', AllocatedResources: { Tasks: { t: { Cpu: { CpuShares: 100 }, Memory: { MemoryMB: 256 } } }, Shared: { DiskMB: 300 } } };
    expect(allocatedResources(node, [running])).toBe('CPU           Memory           Disk\n100/4000 MHz  256 MiB/8.0 GiB  300 MiB/9.8 GiB\n');
    const text = formatNode(node, [], [running], { verbose: false, short: false, nowMs: NOW });
    expect(text).toContain('Node Pool       = default\n');
    expect(text).toContain('Driver Status   = mock,raw_exec (unhealthy)\n');
    expect(text).toContain('\nNode Events\nTime');
    expect(text).toContain('Cluster    Node registered\n');
    expect(text).toContain('\nAllocations\nNo allocations placed\n');
  });
});

describe('deployments', () => {
  it('prints the latest deployment and its groups', () => {
    const group = { AutoRevert: false, AutoPromote: false, ProgressDeadline: 0, RequireProgressBy: '0001-01-01T00:00:00Z', Promoted: false, PlacedCanaries: null, DesiredCanaries: 0 };
    const deployment = { ID: 'd1d2d3d4-0000', Status: 'running', StatusDescription: 'Deployment is running', TaskGroups: { web: { ...group, DesiredTotal: 3, PlacedAllocs: 2, HealthyAllocs: 1, UnhealthyAllocs: 0 } } };
    // Only what the section reads; the rest of a deployment does not change it.
    const text = deploymentSection(deployment as unknown as Parameters<typeof deploymentSection>[0], 8);
    expect(text).toBe('\nLatest Deployment\nID          = d1d2d3d4\nStatus      = running\nDescription = Deployment is running\n\nDeployed\nTask Group  Desired  Placed  Healthy  Unhealthy\nweb         3        2       1        0\n');
  });
});
