/** Nodes (scheduler API): typed calls for the CLI and the tests. Reading nodes needs a management token. */
import type { ApiClient } from './http/client.js';
import type { AllocStub } from './allocs.js';
import type {
  DrainMetadata,
  DrainStrategy,
  DriverInfo as NodeDriverInfo,
  Node as NodeRecord,
  NodeEvent as NodeEventRecord,
  NodeResources,
  nodeStub,
} from '../scheduler/structs/node.js';

export type { DrainMetadata, DrainStrategy };

/** A node's driver as the scheduler stores it; readers need not expect the attributes. */
export type DriverInfo = Omit<NodeDriverInfo, 'Attributes'> & Partial<Pick<NodeDriverInfo, 'Attributes'>>;

/** A node event as the scheduler stores it, read without its index. */
export type NodeEvent = Omit<NodeEventRecord, 'CreateIndex'>;

/**
 * GET /v1/nodes: the scheduler's stub, read without the attributes, volumes and resources it carries only
 * when asked for them.
 */
export type NodeStub = Omit<ReturnType<typeof nodeStub>, 'Attributes' | 'HostVolumes' | 'NodeResources' | 'ReservedResources' | 'Drivers' | 'LastDrain'> & {
  Drivers: Record<string, DriverInfo> | null;
  LastDrain?: DrainMetadata | null;
};

/** What a node offers, or holds back, as the CLI reads both: CPU, memory and disk, each possibly absent. */
type Capacity = { [R in 'Cpu' | 'Memory' | 'Disk']?: Partial<Pick<NodeResources, 'Cpu' | 'Memory' | 'Disk'>[R]> };

/**
 * GET /v1/node/:id: the scheduler's node, read without the fields only the scheduler uses and with its
 * resources figure by figure. A Nomad server's host networks are shown when it sends them.
 */
export type Node = Omit<
  NodeRecord,
  'ComputedClass' | 'TLSEnabled' | 'Links' | 'StatusUpdatedAt' | 'NodeResources' | 'ReservedResources' | 'Drivers' | 'Events' | 'LastDrain'
> & {
  NodeResources: Capacity | null;
  ReservedResources: Capacity | null;
  Drivers: Record<string, DriverInfo> | null;
  HostNetworks?: Record<string, unknown> | null;
  LastDrain?: DrainMetadata | null;
  Events: NodeEvent[] | null;
};

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
  DrainSpec: Pick<DrainStrategy, 'Deadline' | 'IgnoreSystemJobs'> | null;
  /** when cancelling: make the node eligible again */
  MarkEligible: boolean;
  Meta?: Record<string, string>;
}

export async function updateNodeDrain(client: ApiClient, id: string, opts: DrainOptions): Promise<NodeUpdateResponse> {
  const body = { NodeID: id, ...opts };
  return (await client.scheduler<NodeUpdateResponse>('PUT', `/v1/node/${encodeURIComponent(id)}/drain`, { body })).body;
}
