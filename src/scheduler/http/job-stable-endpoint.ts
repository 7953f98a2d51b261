/** Marking a job version stable or not (/v1/job/:job_id/stable). */
import { NotFound, UserError } from '../../shared/errors.js';
import { getJob } from '../state/jobs.js';
import { setVersionStable } from '../state/deployments.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';

export const jobStableRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/stable',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Mark a job version stable or not.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with JobID, JobVersion and Stable', true);
      const jobId = req.params.job_id;
      if (body.JobID === undefined || body.JobID === null || body.JobID === '') throw new UserError('missing job ID for setting job stability');
      if (body.JobID !== jobId) throw new UserError('Job ID does not match');
      const version = body.JobVersion ?? 0;
      if (!Number.isSafeInteger(version) || (version as number) < 0) throw new UserError('field "JobVersion" must be a version number');
      const stable = body.Stable ?? false;
      if (typeof stable !== 'boolean') throw new UserError('field "Stable" must be a boolean');
      if (!getJob(req.services.store, req.namespace, jobId)) throw new NotFound(`job "${jobId}" not found`);
      const { result: found, index } = await req.services.store.write((tx) => setVersionStable(tx, req.namespace, jobId, version as number, stable));
      if (!found) throw new NotFound(`job "${jobId}" at version ${String(version)} not found`);
      // Nomad answers only the write's index (its documentation shows a JobModifyIndex it does not send).
      return { body: { Index: index }, index };
    },
  }),
];
