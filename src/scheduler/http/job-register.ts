/**
 * Job registration shared by POST /v1/jobs and POST /v1/job/:job_id: body checks, the namespace the job
 * lands in, ACL on that namespace, canonicalize → validate → store.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { registerJob } from '../state/jobs.js';
import { canonicalizeJob, formatValidationErrors, jobWarnings, lookup, validateJob, validateJobInput } from '../structs/index.js';
import type { RouteResult, SchedulerRequest } from './route.js';
import type { Job } from '../structs/job.js';
import type { Evaluation } from '../structs/evaluation.js';
import { writeQueryMeta } from './write-meta.js';
import { checkVaultPolicies } from './job-vault-policies.js';

const BODY_FIELDS: Record<string, 'object' | 'bool' | 'int' | 'string'> = {
  Job: 'object',
  Submission: 'object',
  EnforceIndex: 'bool',
  EvalPriority: 'int',
  JobModifyIndex: 'int',
  PolicyOverride: 'bool',
  PreserveCounts: 'bool',
  PreserveResources: 'bool',
  // Legacy write-request fields that Nomad's clients still send.
  Region: 'string',
  Namespace: 'string',
  SecretID: 'string',
};

function checkBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UserError('request body must be a JSON object with a "Job" field');
  const obj = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    const want = BODY_FIELDS[key];
    if (!want) throw new UserError(`unknown field "${key}" in the register request`);
    if (value === null || value === undefined) continue;
    const ok =
      want === 'object'
        ? typeof value === 'object' && !Array.isArray(value)
        : want === 'int'
          ? Number.isSafeInteger(value)
          : typeof value === (want === 'bool' ? 'boolean' : want);
    if (!ok) throw new UserError(`field "${key}" must be ${want === 'int' ? 'an integer' : want === 'bool' ? 'a boolean' : `a ${want}`}`);
  }
  if (obj.Job === undefined || obj.Job === null) throw new UserError('Job must be specified');
  return obj;
}

function checkSubmission(sub: unknown): { Source: string; Format?: string; VariableFlags?: Record<string, string> | null; Variables?: string } | undefined {
  if (sub === undefined || sub === null) return undefined;
  const s = sub as Record<string, unknown>;
  if (typeof s.Source !== 'string') throw new UserError('field "Submission.Source" must be a string');
  if (s.Format !== undefined && s.Format !== '' && s.Format !== 'hcl2' && s.Format !== 'json') throw new UserError('field "Submission.Format" must be "hcl2" or "json"');
  if (s.Variables !== undefined && typeof s.Variables !== 'string') throw new UserError('field "Submission.Variables" must be a string');
  const flags = s.VariableFlags;
  if (flags !== undefined && flags !== null && (typeof flags !== 'object' || Object.values(flags).some((v) => typeof v !== 'string'))) {
    throw new UserError('field "Submission.VariableFlags" must be a map of string to string');
  }
  return s as { Source: string };
}

const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The namespace the job lands in: the query parameter wins over the request's Namespace, which wins
 * over the job's (Nomad's order). Read leniently, because access is checked before the body is.
 */
export function targetNamespace(req: SchedulerRequest, body: unknown): string {
  if (req.raw.query.has('namespace')) return req.namespace;
  const obj = asObject(body);
  const fromBody = typeof obj.Namespace === 'string' ? obj.Namespace : '';
  const fromJob = lookup(asObject(obj.Job), 'Namespace');
  return fromBody || (typeof fromJob === 'string' && fromJob) || 'default';
}

export async function register(req: SchedulerRequest, pathJobId?: string) {
  const rawBody = req.body();
  // Access first, on the namespace the job lands in: a caller without it learns nothing from validation.
  const namespace = targetNamespace(req, rawBody);
  const { acl } = req.caller;
  if (!acl.allowsNamespace(namespace, 'submit-job')) throw new PermissionDenied('Permission denied');
  if (asObject(rawBody).PolicyOverride === true && !acl.allowsNamespace(namespace, 'policy-override')) throw new PermissionDenied('Permission denied');

  const body = checkBody(rawBody);
  validateJobInput(body.Job);
  const input = body.Job as Record<string, unknown>;
  // Keys are matched without regard to case, as Nomad's decoder does (`id` is `ID`).
  const bodyId = lookup(input, 'ID') as string | undefined;
  if (pathJobId !== undefined && bodyId !== undefined && bodyId !== pathJobId) throw new UserError('Job ID does not match name');
  if (lookup(input, 'Dispatched') === true) throw new UserError("job can't be submitted with 'Dispatched' set");

  const job = canonicalizeJob({ ...input, ID: bodyId ?? pathJobId, Namespace: namespace });
  // Fields the server owns: a version tag is set through the tag endpoint, a parent only by dispatch.
  job.VersionTag = null;
  job.ParentID = '';
  job.StatusDescription = '';
  const errors = validateJob(job);
  if (errors.length > 0) throw new UserError(formatValidationErrors(errors).trimEnd());
  checkVaultPolicies(req.caller, job);
  const evalPriority = (body.EvalPriority as number | undefined) ?? 0;
  if (evalPriority !== 0 && (evalPriority < 1 || evalPriority > 100)) throw new UserError('Eval priority must be between 1 and 100 inclusively');

  const result = await registerJob(req.services.store, job, {
    enforceIndex: body.EnforceIndex === true,
    jobModifyIndex: (body.JobModifyIndex as number | undefined) ?? 0,
    preserveCounts: body.PreserveCounts === true,
    submission: checkSubmission(body.Submission),
    tokenAccessor: req.caller.token.accessor,
    evalPriority,
  });
  return registerAnswer(result, jobWarnings(job));
}

/** Nomad's JobRegisterResponse, which register, revert, evaluate and scale answer alike. */
export function registerAnswer(result: { index: number; job: Job; evaluation?: Evaluation }, warnings: string[] = []): RouteResult {
  return {
    index: result.index,
    body: {
      EvalID: result.evaluation?.ID ?? '',
      EvalCreateIndex: result.evaluation?.CreateIndex ?? 0,
      JobModifyIndex: result.job.JobModifyIndex,
      Warnings: warnings.join('\n'),
      ...writeQueryMeta(result.index),
    },
  };
}
