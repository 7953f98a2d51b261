/** A job's allocations, summary and deployments (/v1/job/:job_id/...). */
import { NotFound } from '../../shared/errors.js';
import { ALLOCS_TABLE, JOB_SUMMARIES, getSummary } from '../state/allocs.js';
import { scopedAllocIds, stubsOf } from '../state/alloc-listing.js';
import { getJob } from '../state/jobs.js';
import { DEPLOYMENTS_TABLE, deploymentsOfJob } from '../state/deployments.js';
import { allocStub, jobTypeCache } from './alloc-view.js';
import { streamedList } from './json-stream.js';
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
      const all = req.query.get<boolean>('all');
      const index = Math.max(1, store.tableIndex(ALLOCS_TABLE));
      // A job purged and registered again starts at a new CreateIndex; older allocations belong to its predecessor.
      const ids = await scopedAllocIds(store, { job: { namespace: req.namespace, id: req.params.job_id } }, (a) => all || (job !== undefined && a.CreateIndex >= job.CreateIndex));
      const typeOf = jobTypeCache(store);
      return streamedList(index, stubsOf(store, ids), (a) => allocStub(a, typeOf(a), { resources: false, taskStates: true }));
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
];
