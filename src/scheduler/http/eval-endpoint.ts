/** /v1/evaluations and /v1/evaluation/:eval_id. */
import { NotFound, PermissionDenied } from '../../shared/errors.js';
import { compileFilter } from '../filter/index.js';
import { EVALS_TABLE, getEval, listEvals } from '../state/evals.js';
import { compareCreateIndexTokens, createIndexToken, paginate, validateHexPrefix } from './paging.js';
import { defineRoute } from './route.js';
import { ALLOCS_TABLE, allocsOfEval } from '../state/allocs.js';
import { allocStub, jobCache } from './alloc-view.js';

export const evalRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/evaluations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List evaluations, oldest first (by ID with a prefix).',
    query: {
      prefix: { type: 'string', description: 'Only evaluations whose ID starts with this (an even number of hex characters).' },
      job: { type: 'string', description: 'Only evaluations of this job.' },
      status: { type: 'string', description: 'Only evaluations with this status.' },
      filter: { type: 'string', description: 'A filter expression evaluated against each evaluation.' },
      per_page: { type: 'int', description: 'Page size; 0 means no paging.' },
      next_token: { type: 'string', description: 'Where the page starts: the X-Svc-NextToken of the previous page.' },
      reverse: { type: 'bool', description: 'Newest first.' },
    },
    handler: async (req) => {
      const prefix = req.query.get<string>('prefix').replace(/-/g, '');
      if (prefix) validateHexPrefix(prefix);
      const { acl } = req.caller;
      const job = req.query.get<string>('job');
      const status = req.query.get<string>('status');
      let evals = listEvals(req.services.store, req.namespace).filter(
        (e) =>
          (req.namespace !== '*' || acl.allowsNamespace(e.Namespace, 'read-job')) &&
          (!prefix || e.ID.replace(/-/g, '').startsWith(prefix)) &&
          (!job || e.JobID === job) &&
          (!status || e.Status === status),
      );
      // With a prefix Nomad walks the ID index, so the order (and the token) is the ID.
      if (prefix) evals = evals.sort((a, b) => (a.ID < b.ID ? -1 : 1));
      const reverse = req.query.get<boolean>('reverse');
      if (reverse) evals.reverse();
      const filterText = req.query.get<string>('filter');
      const { page, nextToken } = paginate(evals, {
        perPage: req.query.get<number>('per_page'),
        nextToken: req.query.get<string>('next_token'),
        tokenOf: (e) => (prefix ? e.ID : createIndexToken(e.CreateIndex, e.ID)),
        compareToken: prefix ? undefined : compareCreateIndexTokens,
        filter: filterText ? compileFilter(filterText) : undefined,
        reverse,
      });
      return {
        body: page,
        index: Math.max(1, req.services.store.tableIndex(EVALS_TABLE)),
        headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined,
      };
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
      const jobOf = jobCache(store);
      const allocs = allocsOfEval(store, evaluation.ID).sort((a, b) => a.CreateIndex - b.CreateIndex);
      return { body: allocs.map((a) => allocStub(a, jobOf(a), { resources: false, taskStates: true })), index: Math.max(1, store.tableIndex(ALLOCS_TABLE)) };
    },
  }),
];
