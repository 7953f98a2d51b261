/**
 * The `stats` of GET /v1/agent/self, in Nomad's sections and keys (what `nomad agent-info` prints),
 * with the keys svc has values for: every value a string, as Nomad's are. One region; `leader` and
 * `leader_addr` come from the cluster's leadership (a server alone leads itself); `runtime` describes the
 * Node.js process where Nomad's describes Go's.
 */
import os from 'node:os';
import type { SchedulerContext } from '../context.js';
import { allocsOfNode } from '../state/allocs.js';
import { allocTerminal } from '../structs/allocation.js';
import { formatGoDuration } from '../../shared/duration.js';
import { hostPort } from '../../cluster/member-views.js';

/** Go's GOARCH names for Node's process.arch values, where they differ. */
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };

export type AgentStats = Record<string, Record<string, string>>;

export function agentStats(services: SchedulerContext): AgentStats {
  const { config, scheduler, store, leadership } = services;
  const address = `${config.bind}:${config.port}`;
  const leader = leadership.leader();
  const stats: AgentStats = {
    nomad: {
      server: 'true',
      leader: String(leadership.isLeader()),
      bootstrap: 'true',
      known_regions: '1',
      leader_addr: leader ? hostPort(leader.Address) : '',
    },
    runtime: {
      arch: GO_ARCH[process.arch] ?? process.arch,
      cpu_count: String(os.availableParallelism()),
      'kernel.name': process.platform,
      version: process.version,
    },
  };
  const [nodeId] = scheduler.localNodes.keys();
  if (nodeId) {
    stats.client = {
      node_id: nodeId,
      known_servers: address,
      heartbeat_ttl: formatGoDuration(scheduler.heartbeatTtlMs * 1e6),
      num_allocations: String(allocsOfNode(store, nodeId).filter((a) => !allocTerminal(a)).length),
    };
  }
  return stats;
}
