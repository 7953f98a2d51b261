/**
 * Nodes as operators see them: GET /v1/nodes, /v1/node/:node_id, its allocations, and its scheduling
 * eligibility. Reading needs `node:read` and changing eligibility `node:write` (a policy's `node` rule).
 */
import { NotFound, UserError } from '../../shared/errors.js';
import { compileFilter } from '../filter/index.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { scopedAllocIds, stubsOf } from '../state/alloc-listing.js';
import { NODES_TABLE, getNode, listNodes, setNodeEligibility } from '../state/nodes.js';
import { nodeStub, type Node } from '../structs/node.js';
import { allocStub, jobTypeCache } from './alloc-view.js';
import { streamedList } from './json-stream.js';
import { bodyObject } from './alloc-endpoint.js';
import { paginate } from './paging.js';
import { defineRoute, type SchedulerRequest } from './route.js';

export function nodeForRequest(req: SchedulerRequest): Node {
  const node = getNode(req.services.store, req.params.node_id);
  if (!node) throw new NotFound('node not found');
  return node;
}

export const nodeRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/nodes',
    acl: { node: 'read' },
    blocking: true,
    synopsis: 'List nodes.',
    query: {
      prefix: { type: 'string', description: 'Only nodes whose ID starts with this.' },
      filter: { type: 'string', description: 'A filter expression evaluated against each node.' },
      resources: { type: 'bool', description: 'Include NodeResources and ReservedResources.' },
      os: { type: 'bool', description: 'Include the os.name and os.version attributes.' },
      per_page: { type: 'int', description: 'Page size; 0 means no paging.' },
      next_token: { type: 'string', description: 'Where the page starts: the X-Svc-NextToken of the previous page.' },
    },
    handler: async (req) => {
      const prefix = req.query.get<string>('prefix');
      const nodes = listNodes(req.services.store).filter((n) => n.ID.startsWith(prefix));
      const filterText = req.query.get<string>('filter');
      const { page, nextToken } = paginate(nodes, {
        perPage: req.query.get<number>('per_page'),
        nextToken: req.query.get<string>('next_token'),
        tokenOf: (n) => n.ID,
        filter: filterText ? compileFilter(filterText) : undefined,
      });
      const render = (n: Node) => nodeStub(n, req.query.get<boolean>('resources'), req.query.get<boolean>('os'));
      const index = Math.max(1, req.services.store.tableIndex(NODES_TABLE));
      // Unpaged, the stubs of thousands of nodes are written in chunks rather than built all at once.
      if (req.query.get<number>('per_page') === 0) return streamedList(index, page, render);
      return { body: page.map(render), index, headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/node/:node_id',
    acl: { node: 'read' },
    blocking: true,
    synopsis: 'Read a node.',
    handler: async (req) => {
      const node = nodeForRequest(req);
      return { body: node, index: node.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/node/:node_id/allocations',
    acl: { node: 'read' },
    blocking: true,
    synopsis: 'List the allocations placed on a node.',
    handler: async (req) => {
      const node = nodeForRequest(req);
      const { store } = req.services;
      const index = Math.max(1, store.tableIndex(ALLOCS_TABLE));
      // node:read shows the node; each allocation on it still needs read-job in its namespace, as in Nomad.
      const ids = await scopedAllocIds(store, { node: node.ID }, (a) => req.caller.acl.allowsNamespace(a.Namespace, 'read-job'));
      const typeOf = jobTypeCache(store);
      return streamedList(index, stubsOf(store, ids), (a) => allocStub(a, typeOf(a), { resources: false, taskStates: true }));
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/node/:node_id/eligibility',
    acl: { node: 'write' },
    synopsis: 'Mark a node eligible or ineligible for new placements.',
    handler: async (req) => {
      const node = nodeForRequest(req);
      const { Eligibility } = bodyObject(req, 'object with Eligibility', true);
      if (Eligibility !== 'eligible' && Eligibility !== 'ineligible') throw new UserError('field "Eligibility" must be "eligible" or "ineligible"');
      const index = await setNodeEligibility(req.services.store, node.ID, Eligibility === 'eligible');
      return { body: { EvalIDs: null, EvalCreateIndex: 0, NodeModifyIndex: index, Index: index }, index };
    },
  }),
];
