/** /v1/evaluations and /v1/evaluation/:eval_id. */
import { NotFound, PermissionDenied } from '../../shared/errors.js';
import { EVALS_TABLE, getEval, listEvals } from '../state/evals.js';
import { LIST_QUERY, listByCreateIndex } from './list-by-create-index.js';
import { defineRoute } from './route.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { scopedAllocIds, stubsOf } from '../state/alloc-listing.js';
import { allocStub, jobTypeCache } from './alloc-view.js';
import { streamedList } from './json-stream.js';

export const evalRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/evaluations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List evaluations, oldest first (by ID with a prefix).',
    query: {
      ...LIST_QUERY,
      job: { type: 'string', description: 'Only evaluations of this job.' },
      status: { type: 'string', description: 'Only evaluations with this status.' },
    },
    handler: async (req) => {
      const job = req.query.get<string>('job');
      const status = req.query.get<string>('status');
      const { store } = req.services;
      return listByCreateIndex(req, listEvals(store, req.namespace), store.tableIndex(EVALS_TABLE), (e) => (!job || e.JobID === job) && (!status || e.Status === status));
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/evaluation/:eval_id',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: 'Read an evaluation.',
    handler: async (req) => {
      const evaluation = getEval(req.services.store, req.params.eval_id);
      if (!evaluation) throw new NotFound('eval not found');
      // The request's namespace was checked; an evaluation of another namespace needs its own grant.
      if (!req.caller.acl.allowsNamespace(evaluation.Namespace, 'read-job')) throw new PermissionDenied('Permission denied');
      return { body: evaluation, index: evaluation.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/evaluation/:eval_id/allocations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: 'List the allocations an evaluation placed or updated.',
    handler: async (req) => {
      const { store } = req.services;
      const evaluation = getEval(store, req.params.eval_id);
      if (!evaluation) throw new NotFound('eval not found');
      if (!req.caller.acl.allowsNamespace(evaluation.Namespace, 'read-job')) throw new PermissionDenied('Permission denied');
      const index = Math.max(1, store.tableIndex(ALLOCS_TABLE));
      const ids = await scopedAllocIds(store, { eval: evaluation.ID });
      const typeOf = jobTypeCache(store);
      return streamedList(index, stubsOf(store, ids), (a) => allocStub(a, typeOf(a), { resources: false, taskStates: true }));
    },
  }),
];
