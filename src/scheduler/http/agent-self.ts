/**
 * The `config` and `member` sections of GET /v1/agent/self, in the shapes of Nomad's agent Config and
 * serf member: Nomad's client takes its NodeName() from `member.Name` and its Datacenter() and Region()
 * from `config`. Only settings svc has are answered, and no secret is among them. One port serves HTTP
 * and what Nomad splits into RPC and serf, so the three ports (and addresses) are the same.
 */
import type { SchedulerContext } from '../context.js';
import { listMembers, type Member } from '../../cluster/members.js';
import { agentMembers, type AgentMember } from '../../cluster/member-views.js';
import { getNode } from '../state/nodes.js';

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

export interface AgentSelfConfig {
  Region: string;
  Datacenter: string;
  NodeName: string;
  DataDir: string;
  LogLevel: string;
  BindAddr: string;
  DevMode: boolean;
  Ports: { HTTP: number; RPC: number; Serf: number };
  Addresses: { HTTP: string; RPC: string; Serf: string };
  Client: { Enabled: boolean; NodeClass: string };
  Server: { Enabled: true; BootstrapExpect: number };
  ACL: { Enabled: true };
  Version: { Revision: string; Version: string; VersionPrerelease: string; VersionMetadata: string; BuildDate: string };
}

export function agentSelf(services: SchedulerContext): { config: AgentSelfConfig; member: AgentMember } {
  const { config, leadership, store, scheduler } = services;
  const self = leadership.self;
  // Before its first heartbeat is written the server is not in the member list yet; it is alive all the same.
  const record: Member = listMembers(store).find((m) => m.ID === self.ID) ?? { ...self, Version: services.version, StartedAt: Date.now(), LastSeen: Date.now(), Status: 'alive' };
  const members = agentMembers(self, [record]);
  const [nodeId] = scheduler.localNodes.keys();
  const node = nodeId ? getNode(store, nodeId) : undefined;
  // Nomad's `datacenter` setting is the agent's, for its node and its member tags alike.
  const datacenter = node?.Datacenter ?? members.ServerDC;
  const member = { ...members.Members[0], Tags: { ...members.Members[0].Tags, dc: datacenter } };
  return {
    config: {
      Region: members.ServerRegion,
      Datacenter: datacenter,
      NodeName: node?.Name ?? self.Name,
      DataDir: config.dataDir ?? '',
      LogLevel: config.logLevel.toUpperCase(),
      BindAddr: config.bind,
      DevMode: config.dev,
      Ports: { HTTP: config.port, RPC: config.port, Serf: config.port },
      Addresses: { HTTP: config.bind, RPC: config.bind, Serf: config.bind },
      Client: { Enabled: node !== undefined, NodeClass: node?.NodeClass ?? '' },
      Server: { Enabled: true, BootstrapExpect: 1 },
      ACL: { Enabled: true },
      Version: { Revision: '', Version: services.version, VersionPrerelease: '', VersionMetadata: '', BuildDate: GO_ZERO_TIME },
    },
    member,
  };
}
