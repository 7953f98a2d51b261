/** Nodes (scheduler API): typed calls for the CLI and the tests. Reading nodes needs a management token. */
import type { ApiClient } from './http/client.js';
import type { AllocStub } from './allocs.js';
import type { DrainMetadata, DrainStrategy, DriverInfo as NodeDriverInfo, NodeEvent as NodeEventRecord } from '../scheduler/structs/node.js';

export type { DrainMetadata, DrainStrategy };

/** A node's driver as the scheduler stores it; readers need not expect the attributes. */
export type DriverInfo = Omit<NodeDriverInfo, 'Attributes'> & Partial<Pick<NodeDriverInfo, 'Attributes'>>;

/** A node event as the scheduler stores it, read without its index. */
export type NodeEvent = Omit<NodeEventRecord, 'CreateIndex'>;

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
  LastDrain?: DrainMetadata | null;
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
  DrainStrategy: DrainStrategy | null;
  LastDrain?: DrainMetadata | null;
  Events: NodeEvent[] | null;
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

/** PUT /v1/node/:id/drain: a spec starts or changes the drain, null cancels it. */
export interface DrainOptions {
  DrainSpec: { Deadline: number; IgnoreSystemJobs: boolean } | null;
  /** when cancelling: make the node eligible again */
  MarkEligible: boolean;
  Meta?: Record<string, string>;
}

export async function updateNodeDrain(client: ApiClient, id: string, opts: DrainOptions): Promise<NodeUpdateResponse> {
  const body = { NodeID: id, ...opts };
  return (await client.scheduler<NodeUpdateResponse>('PUT', `/v1/node/${encodeURIComponent(id)}/drain`, { body })).body;
}
