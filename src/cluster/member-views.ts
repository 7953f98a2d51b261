/**
 * The cluster's members and leader as Vault's and Nomad's APIs answer them, one shape per response:
 * GET /v1/sys/ha-status and /v1/sys/leader (Vault), GET /v1/agent/members and /v1/status/leader|peers
 * (Nomad). svc servers reach each other over their API address, so it is also Vault's cluster address
 * and what Nomad calls the RPC address.
 */
import { NoLeader } from '../shared/errors.js';
import { NO_LEADER } from './forward-to-leader.js';
import type { LeaderRecord, Leadership, ServerIdentity } from './leadership.js';
import type { Member } from './members.js';

/** A node of sys/ha-status, as Vault's HAStatusNode. */
export interface HaNode {
  hostname: string;
  api_address: string;
  cluster_address: string;
  active_node: boolean;
  /** when the member last beat (RFC 3339); null for the active node */
  last_echo: string | null;
  version: string;
  /** Vault leaves these two out when unset (they come from its integrated storage), as svc always does */
  upgrade_version?: string;
  redundancy_zone?: string;
}

export interface HaStatus {
  nodes: HaNode[];
}

/** The active node first, as Vault lists it, then the others in member order. */
export function haStatus(members: Member[], leader: LeaderRecord | undefined): HaStatus {
  const active = (m: Member) => m.ID === leader?.ID;
  const ordered = [...members.filter(active), ...members.filter((m) => !active(m))];
  return {
    nodes: ordered.map((m) => ({
      hostname: m.Name,
      api_address: m.Address,
      cluster_address: m.Address,
      active_node: active(m),
      last_echo: active(m) ? null : new Date(m.LastSeen).toISOString(),
      version: m.Version,
    })),
  };
}

/** GET /v1/sys/leader, as Vault's LeaderResponse (no integrated storage, so no raft or WAL fields). */
export interface SysLeader {
  ha_enabled: true;
  is_self: boolean;
  /** when this server took the lead, on the leader itself; Go's zero time elsewhere, as Vault answers */
  active_time: string;
  leader_address: string;
  leader_cluster_address: string;
  performance_standby: false;
  performance_standby_last_remote_wal: 0;
}

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

export function sysLeader(leadership: Leadership): SysLeader {
  const leader = leadership.leader();
  const isSelf = leadership.isLeader();
  return {
    ha_enabled: true,
    is_self: isSelf,
    active_time: isSelf && leader ? new Date(leader.Since).toISOString() : GO_ZERO_TIME,
    leader_address: leader?.Address ?? '',
    leader_cluster_address: leader?.Address ?? '',
    performance_standby: false,
    performance_standby_last_remote_wal: 0,
  };
}

/** svc serves one region of one datacenter, as a Nomad server started with no region or datacenter. */
export const REGION = 'global';
const DATACENTER = 'dc1';

/** A member of Nomad's gossip pool (api.AgentMember). */
export interface AgentMember {
  /** `<name>.<region>`, as Nomad names its server members */
  Name: string;
  Addr: string;
  Port: number;
  Tags: Record<string, string>;
  Status: string;
  ProtocolMin: number;
  ProtocolMax: number;
  ProtocolCur: number;
  DelegateMin: number;
  DelegateMax: number;
  DelegateCur: number;
}

/** GET /v1/agent/members (api.ServerMembers). */
export interface ServerMembers {
  ServerName: string;
  ServerRegion: string;
  ServerDC: string;
  Members: AgentMember[];
}

/** Host and port of an API address (`https://[::1]:4646` → `::1`, 4646); '' and 0 when there is none. */
function addressParts(address: string): { addr: string; port: number } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { addr: '', port: 0 };
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { addr: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

/** `host:port` (`[v6]:port`), as Nomad writes server addresses; '' for a member with no address yet. */
export function hostPort(address: string): string {
  const { addr, port } = addressParts(address);
  if (addr === '') return '';
  return addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`;
}

/**
 * The members in Nomad's shape. Tags.port is the port Nomad's CLI pairs with Addr to recognise the
 * leader among the members (`server members`), so it is the API port here too.
 */
export function agentMembers(self: ServerIdentity, members: Member[]): ServerMembers {
  return {
    ServerName: self.Name,
    ServerRegion: REGION,
    ServerDC: DATACENTER,
    Members: members.map((m) => {
      const { addr, port } = addressParts(m.Address);
      return {
        Name: `${m.Name}.${REGION}`,
        Addr: addr,
        Port: port,
        Tags: { role: 'nomad', region: REGION, dc: DATACENTER, build: m.Version, id: m.ID, port: String(port) },
        Status: m.Status,
        ProtocolMin: 1,
        ProtocolMax: 5,
        ProtocolCur: 2,
        DelegateMin: 2,
        DelegateMax: 4,
        DelegateCur: 4,
      };
    }),
  };
}

/** GET /v1/status/leader: the leader's `host:port`; with no leader, Nomad's 500 "No cluster leader". */
export function statusLeader(leader: LeaderRecord | undefined): string {
  if (!leader) throw new NoLeader(NO_LEADER);
  return hostPort(leader.Address);
}

/** GET /v1/status/peers: the alive members' `host:port`, those with no address yet left out. */
export function statusPeers(members: Member[]): string[] {
  return members.filter((m) => m.Status === 'alive').map((m) => hostPort(m.Address)).filter((a) => a !== '');
}
