/** Forcing a new evaluation of a job, optionally rescheduling its failed allocations now (/v1/job/:job_id/evaluate). */
import { NotFound, UserError } from '../../shared/errors.js';
import { evaluateJobNow } from '../state/client-updates.js';
import { getJob } from '../state/jobs.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import { registerAnswer } from './job-register.js';

export const jobEvaluateRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/evaluate',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Force a new evaluation of a job.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with JobID and EvalOptions', false);
      // Only a call without a body (the form Nomad kept for old clients) may leave JobID out.
      if (req.body() !== undefined && (body.JobID === undefined || body.JobID === '')) throw new UserError('Job ID must be specified');
      if (body.JobID !== undefined && body.JobID !== req.params.job_id) throw new UserError('field "JobID" does not match the job ID in the path');
      const options = body.EvalOptions ?? {};
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new UserError('field "EvalOptions" must be an object');
      const force = (options as Record<string, unknown>).ForceReschedule ?? false;
      if (typeof force !== 'boolean') throw new UserError('field "EvalOptions.ForceReschedule" must be a boolean');
      const job = getJob(req.services.store, req.namespace, req.params.job_id);
      if (!job) throw new NotFound('job not found');
      if (job.Periodic !== null || job.ParameterizedJob !== null) throw new UserError(`can't evaluate ${job.Periodic !== null ? 'periodic' : 'parameterized'} job`);
      const { evaluation, index } = await evaluateJobNow(req.services.store, job, force);
      return registerAnswer({ index, job, evaluation });
    },
  }),
];
