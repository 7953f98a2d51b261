/** What the topology reads: nodes with their resources, and allocations with what they were given. */
import type { AllocStub, NodeStub } from '../types.js';
import type { Node } from '../../api/nodes.js';
import type { Allocation } from '../../api/allocs.js';

/** GET /v1/nodes?resources=true: the stub with the node's capacity and what it holds back. */
export type NodeWithResources = NodeStub & Pick<Node, 'NodeResources' | 'ReservedResources'>;

/** GET /v1/allocations?resources=true: the stub with AllocatedResources. */
export type AllocWithResources = AllocStub & Pick<Allocation, 'AllocatedResources'>;
