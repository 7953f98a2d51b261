/** Reverting a job to an earlier version, named by number or by tag (/v1/job/:job_id/revert). */
import { NotFound, UserError } from '../../shared/errors.js';
import { revertJob } from '../state/job-revert.js';
import { taggedVersion } from '../state/job-version-tags.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import { registerAnswer } from './job-register.js';
import { checkVaultPolicies } from './job-vault-policies.js';
import { jobVersions } from '../state/jobs.js';

const FIELDS = new Set(['JobID', 'JobVersion', 'TaggedVersion', 'EnforcePriorVersion', 'MeshToken', 'SecretsToken', 'Region', 'Namespace', 'SecretID']);

const isVersion = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

export const jobRevertRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/revert',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Revert a job to an earlier version (by number or tag), registered again as a new version.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with JobID and JobVersion or TaggedVersion', true);
      for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw new UserError(`unknown field "${key}" in the revert request`);
      const jobId = req.params.job_id;
      if (body.JobID === undefined || body.JobID === '') throw new UserError('missing job ID for revert');
      if (body.JobID !== jobId) throw new UserError('Job ID does not match');
      const tag = body.TaggedVersion ?? '';
      if (typeof tag !== 'string') throw new UserError('field "TaggedVersion" must be a string');
      if (body.JobVersion !== undefined && body.JobVersion !== null && !isVersion(body.JobVersion)) throw new UserError('field "JobVersion" must be a version number');
      // JobVersion 0 is also its default: only a TaggedVersion next to a non-zero version is certainly both.
      if (tag !== '' && body.JobVersion !== undefined && body.JobVersion !== null && body.JobVersion !== 0) {
        throw new UserError('use one of JobVersion or TaggedVersion, not both');
      }
      const prior = body.EnforcePriorVersion ?? undefined;
      if (prior !== undefined && !isVersion(prior)) throw new UserError('field "EnforcePriorVersion" must be a version number');

      let version = (body.JobVersion as number | undefined | null) ?? 0;
      if (tag !== '') {
        const tagged = taggedVersion(req.services.store, req.namespace, jobId, tag);
        if (!tagged) throw new NotFound(`tag "${tag}" not found on job "${jobId}"`);
        version = tagged.Version;
      }
      // The version comes back to run: its tasks' tokens are the reverter's to give, as at registration.
      const old = jobVersions(req.services.store, req.namespace, jobId).find((v) => v.Version === version);
      if (old) checkVaultPolicies(req.caller, old);
      const result = await revertJob(req.services.store, req.namespace, jobId, { version, enforcePriorVersion: prior, tokenAccessor: req.caller.token.accessor });
      return registerAnswer(result);
    },
  }),
];
