/** Nodes (scheduler API): typed calls for the CLI and the tests. Reading nodes needs a management token. */
import type { ApiClient } from './client.js';
import type { AllocStub } from './allocs.js';

export interface DriverInfo {
  Detected: boolean;
  Healthy: boolean;
  HealthDescription: string;
  /** RFC3339 */
  UpdateTime: string;
  Attributes?: Record<string, string> | null;
}

/** GET /v1/nodes */
export interface NodeStub {
  Address: string;
  ID: string;
  Datacenter: string;
  Name: string;
  NodeClass: string;
  NodePool: string;
  Version: string;
  Drain: boolean;
  SchedulingEligibility: string;
  Status: string;
  StatusDescription: string;
  Drivers: Record<string, DriverInfo> | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** GET /v1/node/:id */
export interface Node {
  ID: string;
  Name: string;
  Datacenter: string;
  NodePool: string;
  NodeClass: string;
  HTTPAddr: string;
  Attributes: Record<string, string> | null;
  Meta: Record<string, string> | null;
  NodeResources: { Cpu?: { CpuShares?: number }; Memory?: { MemoryMB?: number }; Disk?: { DiskMB?: number } } | null;
  ReservedResources: { Cpu?: { CpuShares?: number }; Memory?: { MemoryMB?: number }; Disk?: { DiskMB?: number } } | null;
  Drivers: Record<string, DriverInfo> | null;
  HostVolumes: Record<string, { Path: string; ReadOnly: boolean }> | null;
  HostNetworks?: Record<string, unknown> | null;
  Status: string;
  StatusDescription: string;
  SchedulingEligibility: string;
  DrainStrategy: unknown;
  Events: Array<{ Message: string; Subsystem: string; Details: Record<string, string> | null; Timestamp: string }> | null;
  CreateIndex: number;
  ModifyIndex: number;
}

export async function listNodes(client: ApiClient, prefix?: string): Promise<NodeStub[]> {
  return (await client.scheduler<NodeStub[]>('GET', '/v1/nodes', { query: prefix ? { prefix } : {} })).body ?? [];
}

export async function getNode(client: ApiClient, id: string): Promise<Node> {
  return (await client.scheduler<Node>('GET', `/v1/node/${encodeURIComponent(id)}`)).body;
}

export async function nodeAllocations(client: ApiClient, id: string): Promise<AllocStub[]> {
  return (await client.scheduler<AllocStub[]>('GET', `/v1/node/${encodeURIComponent(id)}/allocations`)).body ?? [];
}

/** PUT /v1/node/:id/eligibility */
export interface NodeUpdateResponse {
  EvalIDs: string[] | null;
  EvalCreateIndex: number;
  NodeModifyIndex: number;
  Index: number;
}

export async function setNodeEligibility(client: ApiClient, id: string, eligible: boolean): Promise<NodeUpdateResponse> {
  const body = { NodeID: id, Eligibility: eligible ? 'eligible' : 'ineligible' };
  return (await client.scheduler<NodeUpdateResponse>('PUT', `/v1/node/${encodeURIComponent(id)}/eligibility`, { body })).body;
}
