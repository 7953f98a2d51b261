/**
 * /v1/deployments and /v1/deployment/...: list and read deployments and their allocations, fail them
 * (with auto-revert), pause and resume them, promote their canaries.
 */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { ALLOCS_TABLE, allocsOfJob } from '../state/allocs.js';
import { promoteDeployment } from '../state/deployment-promote.js';
import { runningDescription } from '../sched/canaries.js';
import { DEPLOYMENTS_TABLE, failDeployment, getDeployment, listDeployments, setDeploymentStatus } from '../state/deployments.js';
import { evaluateJob } from '../state/evals.js';
import { JOBS_TABLE, jobKey } from '../state/tables.js';
import type { Job } from '../structs/job.js';
import { DEPLOYMENT_DESCRIPTIONS, deploymentActive, type Deployment } from '../structs/deployment.js';
import { bodyObject } from './alloc-endpoint.js';
import { allocStub, jobTypeCache } from './alloc-view.js';
import { LIST_QUERY, listByCreateIndex } from './list-by-create-index.js';
import { defineRoute, type SchedulerRequest } from './route.js';
import { WriteKind } from '../events/kinds.js';

/** The deployment named by the path, after checking the caller holds `capability` in its namespace. */
function deploymentForRequest(req: SchedulerRequest, capability: string): Deployment {
  if (!req.caller.acl.allowsNamespace('*', capability)) throw new PermissionDenied('Permission denied');
  const d = getDeployment(req.services.store, req.params.deployment_id);
  if (!d) throw new NotFound('deployment not found');
  if (!req.caller.acl.allowsNamespace(d.Namespace, capability)) throw new PermissionDenied('Permission denied');
  return d;
}

/** What fail and pause answer: Nomad's DeploymentUpdateResponse, whose WriteMeta is the index alone. */
function updateResponse(index: number, evalId: string, reverted?: number) {
  return {
    EvalID: evalId,
    EvalCreateIndex: evalId ? index : 0,
    DeploymentModifyIndex: index,
    ...(reverted !== undefined ? { RevertedJobVersion: reverted } : {}),
    Index: index,
  };
}

export const deploymentRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/deployments',
    acl: { namespace: ['read-job'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List deployments, oldest first (by ID with a prefix).',
    query: LIST_QUERY,
    handler: async (req) => listByCreateIndex(req, listDeployments(req.services.store), req.services.store.tableIndex(DEPLOYMENTS_TABLE)),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/deployment/:deployment_id',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'Read a deployment.',
    handler: async (req) => {
      const d = deploymentForRequest(req, 'read-job');
      return { body: d, index: d.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/deployment/allocations/:deployment_id',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'List the allocations of a deployment.',
    handler: async (req) => {
      const d = deploymentForRequest(req, 'read-job');
      const { store } = req.services;
      const typeOf = jobTypeCache(store);
      const allocs = allocsOfJob(store, d.Namespace, d.JobID)
        .filter((a) => a.DeploymentID === d.ID)
        .sort((a, b) => a.CreateIndex - b.CreateIndex);
      return { body: allocs.map((a) => allocStub(a, typeOf(a), { resources: false, taskStates: true })), index: Math.max(1, store.tableIndex(ALLOCS_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/deployment/fail/:deployment_id',
    acl: { authenticated: true },
    synopsis: 'Mark a deployment failed; with auto_revert the last stable job version is registered again.',
    handler: async (req) => {
      const d = deploymentForRequest(req, 'submit-job');
      if (!deploymentActive(d)) throw new UserError(`can't fail terminal deployment (status "${d.Status}")`);
      const { result, index } = await req.services.store.write((tx) => {
        tx.describe(WriteKind.DeploymentStatusUpdate);
        const current = getDeployment(tx, d.ID)!;
        return failDeployment(tx, current, DEPLOYMENT_DESCRIPTIONS.failedByUser);
      });
      return { body: updateResponse(index, '', result), index };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/deployment/pause/:deployment_id',
    acl: { authenticated: true },
    synopsis: 'Pause a deployment (no further allocations are replaced) or resume it.',
    handler: async (req) => {
      const d = deploymentForRequest(req, 'submit-job');
      const { Pause } = bodyObject(req, 'object with Pause', true);
      if (typeof Pause !== 'boolean') throw new UserError('field "Pause" must be a boolean');
      if (!deploymentActive(d)) throw new UserError(`can't ${Pause ? 'pause' : 'resume'} terminal deployment (status "${d.Status}")`);
      const { result, index } = await req.services.store.write((tx) => {
        tx.describe(WriteKind.DeploymentStatusUpdate);
        const current = getDeployment(tx, d.ID)!;
        if (Pause) {
          setDeploymentStatus(tx, current, 'paused', DEPLOYMENT_DESCRIPTIONS.paused);
          return '';
        }
        setDeploymentStatus(tx, current, 'running', runningDescription(current));
        // Resumed: the scheduler carries on with what the pause held back.
        const job = tx.get<Job>(JOBS_TABLE, jobKey(d.Namespace, d.JobID));
        return job ? evaluateJob(tx, job, 'deployment-watcher', { extra: { DeploymentID: d.ID } }).ID : '';
      });
      return { body: updateResponse(index, result), index };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/deployment/promote/:deployment_id',
    acl: { authenticated: true },
    synopsis: 'Promote the canaries of every task group (All) or of the named Groups, once they are healthy.',
    handler: async (req) => {
      const d = deploymentForRequest(req, 'submit-job');
      const body = bodyObject(req, 'object with All or Groups', true);
      if (body.All !== undefined && body.All !== null && typeof body.All !== 'boolean') throw new UserError('field "All" must be a boolean');
      const groups = body.Groups ?? null;
      if (groups !== null && (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))) throw new UserError('field "Groups" must be a list of task group names');
      const named = body.All === true ? null : ((groups as string[] | null) ?? []);
      const { result, index } = await req.services.store.write((tx) => {
        tx.describe(WriteKind.DeploymentPromote);
        return promoteDeployment(tx, getDeployment(tx, d.ID)!, named);
      });
      return { body: updateResponse(index, result?.ID ?? ''), index };
    },
  }),
];
