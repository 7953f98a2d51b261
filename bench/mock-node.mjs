// A mock-driver node as a client registers it: big enough for hundreds of small allocations, running
// nothing (the mock driver), so a benchmark measures the server rather than task start-up.
import { randomUUID } from 'node:crypto';

export function mockNode(i) {
  const id = randomUUID();
  const now = new Date().toISOString();
  return {
    secret: randomUUID(),
    node: {
      ID: id,
      Name: `bench-node-${i}`,
      Datacenter: 'dc1',
      NodePool: 'default',
      NodeClass: '',
      HTTPAddr: `10.0.${Math.floor(i / 250)}.${i % 250}:4646`,
      Attributes: { 'kernel.name': 'linux', 'cpu.arch': 'amd64', 'driver.mock': '1', 'unique.hostname': `bench-node-${i}` },
      Meta: { rack: `r${i % 20}` },
      NodeResources: {
        Cpu: { CpuShares: 16000, TotalCpuCores: 8, ReservableCpuCores: null },
        Memory: { MemoryMB: 32768 },
        Disk: { DiskMB: 500000 },
        Networks: [{ Mode: 'host', Device: 'eth0', CIDR: '10.0.0.1/32', IP: `10.0.${Math.floor(i / 250)}.${i % 250}` }],
        MinDynamicPort: 20000,
        MaxDynamicPort: 32000,
      },
      ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 }, Networks: { ReservedHostPorts: '' } },
      Drivers: { mock: { Attributes: null, Detected: true, Healthy: true, HealthDescription: 'Healthy', UpdateTime: now } },
    },
  };
}
