/**
 * The node API: how a node joins, stays alive, learns what to run and reports what happened. The
 * server's own node uses it over HTTP like any other would, so a remote node is a deployment choice.
 *
 *   PUT  /v1/node/register                       (management token, or the node's own secret once it is known)
 *                                                {Node, SecretID} → {HeartbeatTTL, Index}
 *   PUT  /v1/node/:node_id/heartbeat              (node secret) → {HeartbeatTTL, Index}
 *   GET  /v1/node/:node_id/client-allocations     (node secret, blocking) ?since=N → {Allocs, Changed}
 *   POST /v1/node/:node_id/client-allocations     (node secret) {Allocs: [updates]} → {Index}
 *   POST /v1/node/:node_id/derive-token           (node secret): node-token-endpoint.ts
 */
import { Conflict, UserError } from '../../shared/errors.js';
import { allocsOfNode, nodeAllocsRemovedIndex, withJob } from '../state/allocs.js';
import { parseClientUpdates, updateAllocsFromClient } from '../state/client-updates.js';
import { NodeSecretMismatch, getNode, registerNode, setNodeStatus } from '../state/nodes.js';
import type { Node } from '../structs/node.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import { revokeFinishedTaskTokens } from './node-token-endpoint.js';
import { UUID } from '../../shared/ids.js';


const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown) => isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** Checks what the scheduler relies on; a node with a malformed record would break placement for everyone. */
function checkNode(input: unknown): Node {
  if (!isObject(input)) throw new UserError('field "Node" must be an object');
  const n = input;
  if (typeof n.ID !== 'string' || !UUID.test(n.ID)) throw new UserError('field "Node.ID" must be a UUID');
  for (const f of ['Name', 'Datacenter', 'NodePool', 'NodeClass', 'HTTPAddr'] as const) {
    if (typeof n[f] !== 'string') throw new UserError(`field "Node.${f}" must be a string`);
  }
  if ((n.Name as string) === '' || (n.Datacenter as string) === '') throw new UserError('fields "Node.Name" and "Node.Datacenter" must not be empty');
  if (!isStringMap(n.Attributes)) throw new UserError('field "Node.Attributes" must be a map of string to string');
  if (!isStringMap(n.Meta)) throw new UserError('field "Node.Meta" must be a map of string to string');
  if (!isObject(n.Drivers) || !Object.values(n.Drivers).every((d) => isObject(d) && typeof d.Detected === 'boolean' && typeof d.Healthy === 'boolean')) {
    throw new UserError('field "Node.Drivers" must map driver names to {Detected, Healthy, ...}');
  }
  const r = n.NodeResources as Record<string, Record<string, unknown> | undefined> | undefined;
  if (!isObject(r) || !isCount(r.Cpu?.CpuShares) || !isCount(r.Memory?.MemoryMB) || !isCount(r.Disk?.DiskMB)) {
    throw new UserError('field "Node.NodeResources" must give Cpu.CpuShares, Memory.MemoryMB and Disk.DiskMB as whole numbers');
  }
  const [minPort, maxPort] = [r.MinDynamicPort as unknown, r.MaxDynamicPort as unknown];
  if (!isCount(minPort) || !isCount(maxPort) || (minPort as number) > (maxPort as number)) {
    throw new UserError('fields "Node.NodeResources.MinDynamicPort" and "MaxDynamicPort" must be a port range');
  }
  const reserved = n.ReservedResources as Record<string, Record<string, unknown>> | undefined;
  if (!isObject(reserved) || !isCount(reserved.Cpu?.CpuShares) || !isCount(reserved.Memory?.MemoryMB) || !isCount(reserved.Disk?.DiskMB)) {
    throw new UserError('field "Node.ReservedResources" must give Cpu.CpuShares, Memory.MemoryMB and Disk.DiskMB as whole numbers');
  }
  if (n.SchedulingEligibility !== undefined && n.SchedulingEligibility !== 'eligible' && n.SchedulingEligibility !== 'ineligible') {
    throw new UserError('field "Node.SchedulingEligibility" must be "eligible" or "ineligible"');
  }
  // A node that does not say is eligible, as Nomad registers it.
  return { Links: null, HostVolumes: null, DrainStrategy: null, LastDrain: null, TLSEnabled: false, ComputedClass: '', Events: null, SchedulingEligibility: 'eligible', ...n } as unknown as Node;
}

export const nodeApiRoutes = [
  defineRoute({
    methods: ['PUT', 'POST'],
    path: '/v1/node/register',
    // Heartbeat timers live on the leader, as in Nomad: a follower forwards.
    leaderOnly: true,
    acl: { nodeRegistration: true },
    synopsis: 'Register a node (or update its registration).',
    handler: async (req) => {
      const body = bodyObject(req, 'object with Node and SecretID', true);
      const node = checkNode(body.Node);
      if (typeof body.SecretID !== 'string' || !UUID.test(body.SecretID)) throw new UserError('field "SecretID" must be a UUID the node keeps secret');
      try {
        const { index } = await registerNode(req.services.store, node, body.SecretID);
        const ttl = req.services.scheduler.heartbeats.beat(node.ID);
        return { body: { HeartbeatTTL: ttl * 1_000_000, NodeModifyIndex: index, Index: index }, index };
      } catch (err) {
        if (err instanceof NodeSecretMismatch) throw new Conflict(err.message);
        throw err;
      }
    },
  }),
  defineRoute({
    methods: ['PUT', 'POST'],
    path: '/v1/node/:node_id/heartbeat',
    leaderOnly: true,
    acl: { nodeSecret: true },
    synopsis: 'Tell the server the node is alive.',
    handler: async (req) => {
      const { store } = req.services;
      const id = req.params.node_id;
      let index = store.index();
      // A node marked down that checks in again is ready: its jobs are re-evaluated by the status change.
      if (getNode(store, id)?.Status !== 'ready') index = await setNodeStatus(store, id, 'ready', '');
      const ttl = req.services.scheduler.heartbeats.beat(id);
      // Allocations also end without a report (their node lost, a collection): a heartbeat of any node
      // revokes their tokens, without holding up the heartbeat or failing it.
      void revokeFinishedTaskTokens(req.services).catch((err: Error) => req.services.log.warn(`revoking finished allocations' task tokens: ${err.message}`));
      return { body: { HeartbeatTTL: ttl * 1_000_000, Index: index }, index };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/node/:node_id/client-allocations',
    acl: { nodeSecret: true },
    blocking: true,
    synopsis: 'What the node must run: every allocation placed on it with its AllocModifyIndex, and in full those changed since `since`.',
    query: { since: { type: 'int', description: 'Return in full only allocations whose AllocModifyIndex is above this.' } },
    handler: async (req) => {
      const { store } = req.services;
      const since = req.query.get<number>('since');
      const allocs = allocsOfNode(store, req.params.node_id);
      const Allocs: Record<string, number> = {};
      // A removed allocation (garbage collection) changes what the node runs as much as a new one.
      let index = Math.max(1, nodeAllocsRemovedIndex(store, req.params.node_id));
      for (const a of allocs) {
        Allocs[a.ID] = a.AllocModifyIndex;
        index = Math.max(index, a.AllocModifyIndex);
      }
      // The answer's index moves only when what the node must run changes, so the node's own status
      // reports do not end its blocking query.
      const Changed = allocs.filter((a) => a.AllocModifyIndex > since).map((a) => withJob(store, a));
      return { body: { Allocs, Changed, Index: index }, index };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/node/:node_id/client-allocations',
    acl: { nodeSecret: true },
    synopsis: 'Report the client status and task states of allocations on the node.',
    handler: async (req) => {
      const updates = parseClientUpdates(bodyObject(req, 'object with Allocs', true));
      const index = await updateAllocsFromClient(req.services.store, req.params.node_id, updates);
      // A task's token lives as long as its allocation: a report that one finished is when it goes.
      await revokeFinishedTaskTokens(req.services);
      return { body: { Index: index }, index };
    },
  }),
];
