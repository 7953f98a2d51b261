/** A job's allocations, summary and deployments, its versions' stability, and forcing its evaluation (/v1/job/:job_id/...). */
import { NotFound, UserError } from '../../shared/errors.js';
import { ALLOCS_TABLE, JOB_SUMMARIES, allocsOfJob, getSummary } from '../state/allocs.js';
import { evaluateJobNow } from '../state/client-updates.js';
import { getJob } from '../state/jobs.js';
import { DEPLOYMENTS_TABLE, deploymentsOfJob, setVersionStable } from '../state/deployments.js';
import { allocStub, jobCache } from './alloc-view.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';

export const jobAllocationsRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/allocations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "List a job's allocations.",
    query: { all: { type: 'bool', description: 'Include allocations of earlier jobs registered under the same ID.' } },
    handler: async (req) => {
      const { store } = req.services;
      const job = getJob(store, req.namespace, req.params.job_id);
      let allocs = allocsOfJob(store, req.namespace, req.params.job_id);
      // A job purged and registered again starts at a new CreateIndex; older allocations belong to its predecessor.
      if (!req.query.get<boolean>('all')) allocs = job ? allocs.filter((a) => a.CreateIndex >= job.CreateIndex) : [];
      allocs.sort((a, b) => a.CreateIndex - b.CreateIndex || (a.ID < b.ID ? -1 : 1));
      const jobOf = jobCache(store);
      return { body: allocs.map((a) => allocStub(a, jobOf(a), { resources: false, taskStates: true })), index: Math.max(1, store.tableIndex(ALLOCS_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/summary',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "Read a job's summary: its allocations counted by status, per task group.",
    handler: async (req) => {
      const { store } = req.services;
      const job = getJob(store, req.namespace, req.params.job_id);
      const summary = job && getSummary(store, req.namespace, job.ID);
      if (!job || !summary) throw new NotFound('job not found');
      return { body: summary, index: Math.max(1, store.tableIndex(JOB_SUMMARIES)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/deployments',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "List a job's deployments, newest first.",
    query: { all: { type: 'bool', description: 'Include deployments of earlier jobs registered under the same ID.' } },
    handler: async (req) => {
      const { store } = req.services;
      const job = getJob(store, req.namespace, req.params.job_id);
      let list = deploymentsOfJob(store, req.namespace, req.params.job_id);
      if (!req.query.get<boolean>('all')) list = job ? list.filter((d) => d.JobCreateIndex === job.CreateIndex) : [];
      return { body: list, index: Math.max(1, store.tableIndex(DEPLOYMENTS_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/deployment',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "Read a job's most recent deployment (null when it has none).",
    handler: async (req) => {
      const { store } = req.services;
      const job = getJob(store, req.namespace, req.params.job_id);
      const latest = job ? deploymentsOfJob(store, req.namespace, job.ID).find((d) => d.JobCreateIndex === job.CreateIndex) : undefined;
      return { body: latest ?? null, index: Math.max(1, store.tableIndex(DEPLOYMENTS_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/stable',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Mark a job version stable or not.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with JobID, JobVersion and Stable', true);
      if (body.JobID !== undefined && body.JobID !== req.params.job_id) throw new UserError('field "JobID" does not match the job ID in the path');
      const version = body.JobVersion ?? 0;
      if (!Number.isSafeInteger(version) || (version as number) < 0) throw new UserError('field "JobVersion" must be a version number');
      const stable = body.Stable ?? false;
      if (typeof stable !== 'boolean') throw new UserError('field "Stable" must be a boolean');
      if (!getJob(req.services.store, req.namespace, req.params.job_id)) throw new NotFound('job not found');
      const { result: found, index } = await req.services.store.write((tx) => setVersionStable(tx, req.namespace, req.params.job_id, version as number, stable));
      if (!found) throw new NotFound(`job version ${String(version)} not found`);
      return { body: { Index: index }, index };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/evaluate',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Force a new evaluation of a job.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with JobID and EvalOptions', false);
      if (body.JobID !== undefined && body.JobID !== req.params.job_id) throw new UserError('field "JobID" does not match the job ID in the path');
      const options = body.EvalOptions ?? {};
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new UserError('field "EvalOptions" must be an object');
      const force = (options as Record<string, unknown>).ForceReschedule ?? false;
      if (typeof force !== 'boolean') throw new UserError('field "EvalOptions.ForceReschedule" must be a boolean');
      const job = getJob(req.services.store, req.namespace, req.params.job_id);
      if (!job) throw new NotFound('job not found');
      if (job.Periodic !== null || job.ParameterizedJob !== null) throw new UserError(`can't evaluate ${job.Periodic !== null ? 'periodic' : 'parameterized'} job`);
      const { evaluation, index } = await evaluateJobNow(req.services.store, job, force);
      return { index, body: { EvalID: evaluation.ID, EvalCreateIndex: evaluation.CreateIndex, JobModifyIndex: job.JobModifyIndex, Warnings: '', Index: index, LastContact: 0, KnownLeader: true, NextToken: '' } };
    },
  }),
];
