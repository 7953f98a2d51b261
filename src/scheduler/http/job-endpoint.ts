/** /v1/job/:job_id and its sub-resources. Job IDs may contain '/', hence the `*job_id` patterns. */
import { NotFound, UserError } from '../../shared/errors.js';
import { JOB_VERSIONS_TABLE, getJob, jobSubmission, jobVersions, stopJob } from '../state/jobs.js';
import { EVALS_TABLE, evalsOfJob } from '../state/evals.js';
import { register } from './job-register.js';
import { defineRoute, type SchedulerRequest } from './route.js';
import type { Job } from '../structs/job.js';
import { diffJobs, type JobDiff } from '../structs/diff.js';
import { writeQueryMeta } from './write-meta.js';

export const jobRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: 'Read a job.',
    handler: async (req) => {
      const job = getJob(req.services.store, req.namespace, req.params.job_id);
      if (!job) throw new NotFound('job not found');
      return { body: job, index: job.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id',
    // submit-job is checked by the handler on the job's own namespace, which the body may name.
    acl: { authenticated: true },
    synopsis: 'Register or update a job.',
    handler: (req) => register(req, req.params.job_id),
  }),
  defineRoute({
    methods: ['DELETE'],
    path: '/v1/job/*job_id',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Stop (and optionally purge) a job.',
    query: {
      purge: { type: 'bool', description: 'Remove the job at once instead of leaving it for garbage collection.' },
      global: { type: 'bool', description: 'Stop a multi-region job in every region; svc has one region.' },
      eval_priority: { type: 'int', description: 'Priority of the deregistration evaluation.' },
      no_shutdown_delay: { type: 'bool', description: 'Ignore shutdown_delay.' },
    },
    handler: async (req) => {
      const priority = req.query.get<number>('eval_priority');
      if (priority !== 0 && (priority < 1 || priority > 100)) throw new UserError('Eval priority must be between 1 and 100 inclusively');
      const { job, index, evaluation } = await stopJob(req.services.store, req.namespace, req.params.job_id, {
        purge: req.query.get<boolean>('purge'),
        evalPriority: priority,
        noShutdownDelay: req.query.get<boolean>('no_shutdown_delay'),
      });
      return {
        index,
        body: { EvalID: evaluation?.ID ?? '', EvalCreateIndex: evaluation?.CreateIndex ?? 0, JobModifyIndex: job.JobModifyIndex, VolumeEvalID: '', VolumeEvalIndex: 0, ...writeQueryMeta(index) },
      };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/versions',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: 'List the versions of a job, newest first, with the diffs between them if asked.',
    query: {
      diffs: {
        type: 'bool',
        description:
          'Fill Diffs: Diffs[i] is the change from Versions[i+1] to Versions[i] (one fewer than the versions), ' +
          'or with diff_version/diff_tag the change from that version to Versions[i]. Implied by diff_version and diff_tag unless given as false.',
      },
      diff_version: { type: 'int', description: 'Diff every version against this version number instead of its predecessor.' },
      diff_tag: { type: 'string', description: 'Diff every version against the version tagged with this name.' },
    },
    handler: async (req) => {
      const versions = jobVersions(req.services.store, req.namespace, req.params.job_id);
      if (versions.length === 0) throw new NotFound('job versions not found');
      const index = req.services.store.tableIndex(JOB_VERSIONS_TABLE);
      const { leadership } = req.services;
      return {
        body: { Versions: versions, Diffs: versionDiffs(req, versions), Index: index, LastContact: leadership.lastContactMs(), KnownLeader: leadership.knownLeader(), NextToken: '' },
        index,
      };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/evaluations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: 'List the evaluations of a job, newest first.',
    handler: async (req) => {
      const evals = evalsOfJob(req.services.store, req.namespace, req.params.job_id);
      return { body: evals, index: Math.max(1, req.services.store.tableIndex(EVALS_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/submission',
    acl: { namespace: ['read-job'] },
    synopsis: 'Read the original source of a job version.',
    query: { version: { type: 'string', description: 'The job version whose source to read.' } },
    handler: async (req) => {
      const text = req.raw.query.get('version');
      if (text === null || !/^\d+$/.test(text)) throw new UserError('Unable to parse job submission version parameter');
      const submission = jobSubmission(req.services.store, req.namespace, req.params.job_id, Number(text));
      if (!submission) throw new NotFound('job source not found');
      return { body: submission, index: submission.JobModifyIndex };
    },
  }),
];

/**
 * The Diffs of a versions answer: null unless asked for; each version against its
 * predecessor (the oldest has none), or every version against the one diff_version or diff_tag names.
 * Nomad only honours diff_version/diff_tag with diffs=true; here they imply it unless diffs=false is given.
 */
function versionDiffs(req: SchedulerRequest, versions: Job[]): JobDiff[] | null {
  const hasVersion = req.query.has('diff_version');
  const tag = req.query.has('diff_tag') ? req.query.get<string>('diff_tag') : '';
  const wanted = req.query.has('diffs') ? req.query.get<boolean>('diffs') : hasVersion || tag !== '';
  if (!wanted) return null;
  if (hasVersion && tag !== '') throw new UserError('diff_version and diff_tag are mutually exclusive');
  let base: Job | undefined;
  if (hasVersion) {
    const number = req.query.get<number>('diff_version');
    if (number < 0) throw new UserError(`invalid diff_version ${number}: expected a non-negative integer`);
    base = versions.find((v) => v.Version === number);
    if (!base) throw new UserError(`version ${number} not found`);
  } else if (tag !== '') {
    base = versions.find((v) => v.VersionTag?.Name === tag);
    if (!base) throw new UserError(`tag "${tag}" not found`);
  }
  if (base) return versions.map((v) => diffJobs(base!, v, true));
  return versions.slice(0, -1).map((v, i) => diffJobs(versions[i + 1], v, true));
}
