/**
 * PUT|POST /v1/node/:node_id/drain (node:write): starts, changes or cancels a node's drain, as Nomad's
 * nodeToggleDrain. Body `{DrainSpec: {Deadline, IgnoreSystemJobs} | null, MarkEligible, Meta}`; a null
 * DrainSpec cancels. Answers `{EvalIDs, EvalCreateIndex, NodeModifyIndex, Index}`. The node drainer
 * (src/scheduler/drainer/) does the rest.
 */
import { UserError } from '../../shared/errors.js';
import { updateNodeDrain, type DrainRequest } from '../state/node-drain.js';
import { bodyObject } from './alloc-endpoint.js';
import { nodeForRequest } from './node-endpoint.js';
import { defineRoute } from './route.js';

/** NodeID is what Nomad's API client sends beside the rest (the node is the one in the path). */
const FIELDS = new Set(['NodeID', 'DrainSpec', 'MarkEligible', 'Meta']);
const SPEC_FIELDS = new Set(['Deadline', 'IgnoreSystemJobs']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseSpec(value: unknown): DrainRequest['spec'] {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new UserError('field "DrainSpec" must be an object or null');
  for (const key of Object.keys(value)) if (!SPEC_FIELDS.has(key)) throw new UserError(`unknown field "DrainSpec.${key}" in the drain request`);
  const deadline = value.Deadline ?? 0;
  if (!Number.isSafeInteger(deadline)) throw new UserError('field "DrainSpec.Deadline" must be an integer number of nanoseconds (negative forces the drain, 0 means no deadline)');
  const ignore = value.IgnoreSystemJobs ?? false;
  if (typeof ignore !== 'boolean') throw new UserError('field "DrainSpec.IgnoreSystemJobs" must be a boolean');
  return { Deadline: deadline as number, IgnoreSystemJobs: ignore };
}

function parseMeta(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new UserError('field "Meta" must be a map of string to string');
  return value as Record<string, string>;
}

export const nodeDrainRoutes = [
  defineRoute({
    methods: ['PUT', 'POST'],
    path: '/v1/node/:node_id/drain',
    acl: { node: 'write' },
    synopsis: "Start, change or cancel a node's drain.",
    handler: async (req) => {
      const node = nodeForRequest(req);
      const body = bodyObject(req, 'object with DrainSpec, MarkEligible and Meta', true);
      for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw new UserError(`unknown field "${key}" in the drain request`);
      const nodeId = body.NodeID ?? '';
      if (typeof nodeId !== 'string') throw new UserError('field "NodeID" must be a string');
      if (nodeId !== '' && nodeId !== node.ID) throw new UserError('field "NodeID" must name the node of the path');
      const markEligible = body.MarkEligible ?? false;
      if (typeof markEligible !== 'boolean') throw new UserError('field "MarkEligible" must be a boolean');
      const { index, evalIds } = await updateNodeDrain(req.services.store, node.ID, {
        spec: parseSpec(body.DrainSpec),
        markEligible,
        meta: parseMeta(body.Meta),
        accessorId: req.caller.token.accessor,
      });
      const created = evalIds.length > 0;
      return { body: { EvalIDs: created ? evalIds : null, EvalCreateIndex: created ? index : 0, NodeModifyIndex: index, Index: index }, index };
    },
  }),
];
