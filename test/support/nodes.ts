/**
 * Nodes that join through the node API without running anything: the scheduler places on them, and
 * tests report task states for them as a node would. Each keeps its secret to speak for itself.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../src/api/http/client.js';
import type { Node } from '../../src/scheduler/structs/node.js';

export interface FakeNode {
  node: Node;
  secret: string;
}

export function fakeNode(overrides: Partial<Node> = {}, drivers: string[] = ['mock']): FakeNode {
  const id = randomUUID();
  const now = new Date().toISOString();
  const node: Node = {
    ID: id,
    Name: `fake-${id.slice(0, 8)}`,
    Datacenter: 'dc1',
    NodePool: 'default',
    NodeClass: '',
    ComputedClass: '',
    HTTPAddr: '127.0.0.1:1',
    TLSEnabled: false,
    Attributes: {
      'kernel.name': 'linux',
      'cpu.arch': 'amd64',
      'unique.hostname': `fake-${id.slice(0, 8)}`,
      ...Object.fromEntries(drivers.map((d) => [`driver.${d}`, '1'])),
    },
    Meta: {},
    Links: null,
    NodeResources: {
      Cpu: { CpuShares: 4000, TotalCpuCores: 4, ReservableCpuCores: null },
      Memory: { MemoryMB: 8192 },
      Disk: { DiskMB: 100_000 },
      Networks: [{ Mode: 'host', Device: 'lo', CIDR: '127.0.0.1/32', IP: '127.0.0.1' }],
      MinDynamicPort: 20000,
      MaxDynamicPort: 32000,
    },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 }, Networks: { ReservedHostPorts: '' } },
    Drivers: Object.fromEntries(drivers.map((d) => [d, { Attributes: null, Detected: true, Healthy: true, HealthDescription: 'Healthy', UpdateTime: now }])),
    HostVolumes: null,
    Status: 'initializing',
    StatusDescription: '',
    StatusUpdatedAt: 0,
    SchedulingEligibility: 'eligible',
    DrainStrategy: null,
    LastDrain: null,
    Events: null,
    CreateIndex: 0,
    ModifyIndex: 0,
    ...overrides,
  };
  return { node, secret: randomUUID() };
}

export async function registerFakeNode(root: ApiClient, fake: FakeNode): Promise<void> {
  await root.scheduler('PUT', '/v1/node/register', { body: { Node: fake.node, SecretID: fake.secret } });
}
