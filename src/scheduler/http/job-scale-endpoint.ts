/** A job's scale status and scaling a task group (/v1/job/:job_id/scale). */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { getJob, JOBS_TABLE } from '../state/jobs.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { SCALING_EVENTS_TABLE } from '../state/tables.js';
import { scaleJob, scaleStatus } from '../state/scaling.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import { writeQueryMeta } from './write-meta.js';

const FIELDS = new Set(['Count', 'Target', 'Message', 'Error', 'Meta', 'EnforceIndex', 'JobModifyIndex', 'PolicyOverride', 'Region', 'Namespace', 'SecretID']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const jobScaleRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/scale',
    acl: { namespace: ['read-job-scaling', 'read-job'] },
    blocking: true,
    synopsis: "Read a job's scale status: each group's desired and live counts, and its scaling events.",
    handler: async (req) => {
      const { store } = req.services;
      const job = getJob(store, req.namespace, req.params.job_id);
      if (!job) throw new NotFound('job not found');
      // The status changes with the job, its allocations and its events: a blocking query wakes on any.
      const index = Math.max(1, ...[JOBS_TABLE, ALLOCS_TABLE, SCALING_EVENTS_TABLE].map((t) => store.tableIndex(t)));
      return {
        index,
        body: {
          JobID: job.ID,
          Namespace: job.Namespace,
          JobCreateIndex: job.CreateIndex,
          JobModifyIndex: job.ModifyIndex,
          JobStopped: job.Stop,
          TaskGroups: scaleStatus(store, job),
        },
      };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/scale',
    acl: { namespace: ['scale-job', 'submit-job'] },
    synopsis: "Scale a job's task group, or record a scaling event without changing its count.",
    handler: async (req) => {
      const body = bodyObject(req, 'object with Target, Count and Message or Error', true);
      for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw new UserError(`unknown field "${key}" in the scaling request`);
      if (body.PolicyOverride === true && !req.caller.acl.allowsNamespace(req.namespace, 'policy-override')) throw new PermissionDenied('Permission denied');
      const target = body.Target;
      if (target !== undefined && target !== null && !isObject(target)) throw new UserError('field "Target" must be an object');
      const group = isObject(target) ? target.Group : undefined;
      if (group === undefined || group === '') throw new UserError('missing task group name for scaling action');
      if (typeof group !== 'string') throw new UserError('field "Target.Group" must be a string');
      const count = body.Count ?? null;
      if (count !== null && !Number.isSafeInteger(count)) throw new UserError('field "Count" must be an integer');
      if (count !== null && (count as number) < 0) throw new UserError("scaling action count can't be negative");
      const message = body.Message ?? '';
      if (typeof message !== 'string') throw new UserError('field "Message" must be a string');
      const error = body.Error ?? false;
      if (typeof error !== 'boolean') throw new UserError('field "Error" must be a boolean');
      if (message === '' && !error) throw new UserError('one of Message or Error must be provided');
      if (error && count !== null) throw new UserError('scaling action should not contain count if error is true');
      const meta = body.Meta ?? null;
      if (meta !== null && !isObject(meta)) throw new UserError('field "Meta" must be an object');
      const enforceIndex = body.EnforceIndex ?? false;
      if (typeof enforceIndex !== 'boolean') throw new UserError('field "EnforceIndex" must be a boolean');
      const jobModifyIndex = body.JobModifyIndex ?? 0;
      if (!Number.isSafeInteger(jobModifyIndex) || (jobModifyIndex as number) < 0) throw new UserError('field "JobModifyIndex" must be a non-negative integer');

      const result = await scaleJob(req.services.store, req.namespace, req.params.job_id, {
        group,
        count: count as number | null,
        message,
        error,
        meta,
        enforceIndex,
        jobModifyIndex: jobModifyIndex as number,
        tokenAccessor: req.caller.token.accessor,
      });
      // EvalID and EvalCreateIndex only when the scaling created an evaluation, as Nomad answers.
      const evaluation = result.evaluation ? { EvalID: result.evaluation.ID, EvalCreateIndex: result.evaluation.CreateIndex } : {};
      return {
        index: result.index,
        body: { ...evaluation, JobModifyIndex: result.job.JobModifyIndex, Warnings: '', ...writeQueryMeta(result.index) },
      };
    },
  }),
];
