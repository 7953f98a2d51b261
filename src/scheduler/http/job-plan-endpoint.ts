/**
 * `job plan` on the server (/v1/job/:job_id/plan): the job checked as a registration would check it,
 * then the scheduler's dry run against the current state, and for a periodic job its next launch.
 * Nothing is written: no job version, no evaluation, no allocation.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { dryRun } from '../sched/dry-run.js';
import { nextPeriodicLaunch } from '../periodic/cron.js';
import { getJob } from '../state/jobs.js';
import { NAMESPACES_TABLE } from '../state/tables.js';
import { storeState } from '../state/scheduler-state.js';
import { ZERO_TIME } from '../structs/allocation.js';
import { annotateDiff, diffJobs } from '../structs/diff.js';
import { checkVaultPolicies } from './job-vault-policies.js';
import { canonicalizeJob, formatValidationErrors, jobWarnings, lookup, validateJob, validateJobInput } from '../structs/index.js';
import { targetNamespace } from './job-register.js';
import { defineRoute } from './route.js';

const FIELDS: Record<string, 'object' | 'bool' | 'string'> = { Job: 'object', Diff: 'bool', PolicyOverride: 'bool', Region: 'string', Namespace: 'string', SecretID: 'string' };

function checkBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UserError('request body must be a JSON object with a "Job" field');
  const obj = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    const want = FIELDS[key];
    if (!want) throw new UserError(`unknown field "${key}" in the plan request`);
    if (value === null || value === undefined) continue;
    const ok = want === 'object' ? typeof value === 'object' && !Array.isArray(value) : typeof value === (want === 'bool' ? 'boolean' : 'string');
    if (!ok) throw new UserError(`field "${key}" must be ${want === 'bool' ? 'a boolean' : `a ${want}`}`);
  }
  if (obj.Job === undefined || obj.Job === null) throw new UserError('Job must be specified');
  return obj;
}

export const jobPlanRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/plan',
    // submit-job is checked by the handler on the job's own namespace, as for a registration.
    acl: { authenticated: true },
    synopsis: 'Dry-run the scheduler for a job: what registering it would place, update and stop, and the diff from the current version.',
    handler: async (req) => {
      const rawBody = req.body();
      const namespace = targetNamespace(req, rawBody);
      const { acl } = req.caller;
      if (!acl.allowsNamespace(namespace, 'submit-job')) throw new PermissionDenied('Permission denied');
      const body = checkBody(rawBody);
      if (body.PolicyOverride === true && !acl.allowsNamespace(namespace, 'policy-override')) throw new PermissionDenied('Permission denied');
      validateJobInput(body.Job);
      const input = body.Job as Record<string, unknown>;
      const id = lookup(input, 'ID');
      if (typeof id !== 'string' || id === '') throw new UserError('Job must have a valid ID');
      if (id !== req.params.job_id) throw new UserError('Job ID does not match');

      const job = canonicalizeJob({ ...input, Namespace: namespace });
      job.VersionTag = null;
      job.ParentID = '';
      const errors = validateJob(job);
      if (errors.length > 0) throw new UserError(formatValidationErrors(errors).trimEnd());
      checkVaultPolicies(req.caller, job);

      const { store } = req.services;
      if (namespace !== 'default' && !store.get(NAMESPACES_TABLE, namespace)) throw new UserError(`job "${id}" is in nonexistent namespace "${namespace}"`);
      const current = getJob(store, namespace, id);
      if (current && !current.Stop && current.Type !== job.Type) {
        throw new UserError(`cannot update job from type "${current.Type}" to "${job.Type}"; stop and purge it first`);
      }
      const { result } = await dryRun(storeState(store), job, current, store.index() + 1);
      const desired = Object.fromEntries(Object.entries(result.desiredUpdates).map(([g, d]) => [g, { ...d, Disconnect: 0, Reconnect: 0 }]));
      const index = current?.JobModifyIndex ?? 0;
      return {
        index,
        body: {
          Annotations: { DesiredTGUpdates: desired, PreemptedAllocs: null },
          FailedTGAllocs: result.eval.FailedTGAllocs,
          JobModifyIndex: index,
          CreatedEvals: result.createEvals.length > 0 ? result.createEvals : null,
          Diff: body.Diff === true ? annotateDiff(diffJobs(current ?? null, job, true), result.desiredUpdates) : null,
          NextPeriodicLaunch: nextPeriodicLaunch(job, new Date())?.toISOString().replace(/\.\d{3}Z$/, 'Z') ?? ZERO_TIME,
          Warnings: jobWarnings(job).join('\n'),
          // Nomad's JobPlanResponse carries WriteMeta: the index alone.
          Index: index,
        },
      };
    },
  }),
];
