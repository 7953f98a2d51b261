/** /v1/jobs: list and register; /v1/jobs/parse: a job file to API JSON. */
import { UserError } from '../../shared/errors.js';
import { JOBS_TABLE, listJobs } from '../state/jobs.js';
import { JOB_SUMMARIES, emptyGroupSummary, getSummary, type JobSummary } from '../state/allocs.js';
import { canonicalizeJob, type Job } from '../structs/index.js';
import { compileFilter } from '../filter/index.js';
import { paginate } from './paging.js';
import { register } from './job-register.js';
import { defineRoute } from './route.js';

/** The JobListStub of a job, with its summary as stored (allocations counted by status). */
export function jobStub(job: Job, summary: JobSummary | undefined, withMeta: boolean) {
  return {
    ID: job.ID,
    ParentID: job.ParentID,
    Name: job.Name,
    Namespace: job.Namespace,
    Datacenters: job.Datacenters,
    NodePool: job.NodePool,
    Multiregion: job.Multiregion,
    Type: job.Type,
    Priority: job.Priority,
    Periodic: job.Periodic !== null,
    // Nomad's IsParameterized: a dispatched instance keeps the block but is not itself parameterized.
    ParameterizedJob: job.ParameterizedJob !== null && !job.Dispatched,
    Stop: job.Stop,
    Status: job.Status,
    StatusDescription: job.StatusDescription,
    JobSummary: summary ?? {
      JobID: job.ID,
      Namespace: job.Namespace,
      Summary: Object.fromEntries(job.TaskGroups.map((g) => [g.Name, emptyGroupSummary()])),
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex: job.CreateIndex,
      ModifyIndex: job.ModifyIndex,
    },
    CreateIndex: job.CreateIndex,
    ModifyIndex: job.ModifyIndex,
    JobModifyIndex: job.JobModifyIndex,
    SubmitTime: job.SubmitTime,
    ...(withMeta ? { Meta: job.Meta } : {}),
  };
}

/** `<namespace>.<job ID>` tokens in table order: namespace first (names hold no '.'), then ID. */
function compareJobTokens(a: string, b: string): number {
  const [na, ia] = [a.slice(0, a.indexOf('.')), a.slice(a.indexOf('.') + 1)];
  const [nb, ib] = [b.slice(0, b.indexOf('.')), b.slice(b.indexOf('.') + 1)];
  if (na !== nb) return na < nb ? -1 : 1;
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

export const jobsRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/jobs',
    acl: { namespace: ['list-jobs'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List jobs.',
    query: {
      prefix: { type: 'string', description: 'Only jobs whose ID starts with this.' },
      meta: { type: 'bool', description: 'Include each job\'s Meta.' },
      filter: { type: 'string', description: 'A filter expression evaluated against each full job.' },
      per_page: { type: 'int', description: 'Page size; 0 means no paging.' },
      next_token: { type: 'string', description: 'Where the page starts: the X-Svc-NextToken of the previous page.' },
    },
    handler: async (req) => {
      const { acl } = req.caller;
      const jobs = listJobs(req.services.store, req.namespace, req.query.get<string>('prefix')).filter(
        (j) => req.namespace !== '*' || acl.allowsNamespace(j.Namespace, 'list-jobs'),
      );
      const filterText = req.query.get<string>('filter');
      // Filters see the full job, not the stub, so selectors such as TaskGroups or Meta work (Nomad).
      const { page, nextToken } = paginate(jobs, {
        perPage: req.query.get<number>('per_page'),
        nextToken: req.query.get<string>('next_token'),
        tokenOf: (j) => `${j.Namespace}.${j.ID}`,
        compareToken: compareJobTokens,
        filter: filterText ? compileFilter(filterText) : undefined,
      });
      const withMeta = req.query.get<boolean>('meta');
      return {
        body: page.map((j) => jobStub(j, getSummary(req.services.store, j.Namespace, j.ID), withMeta)),
        // The tables' index, so a deletion or a summary change also moves it and wakes blocked listings.
        index: Math.max(1, req.services.store.tableIndex(JOBS_TABLE), req.services.store.tableIndex(JOB_SUMMARIES)),
        headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined,
      };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/jobs',
    // submit-job is checked by the handler on the job's own namespace, which the body may name.
    acl: { authenticated: true },
    synopsis: 'Register a job.',
    handler: (req) => register(req),
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/jobs/parse',
    acl: { namespace: ['parse-job', 'submit-job'] },
    synopsis: 'Parse a job file into API JSON.',
    handler: async (req) => {
      const body = req.body() as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UserError('request body must be a JSON object with a "JobHCL" field');
      const { JobHCL, Canonicalize, Variables } = body;
      if (typeof JobHCL !== 'string' || JobHCL.trim() === '') throw new UserError('Job spec is empty');
      if (Canonicalize !== undefined && typeof Canonicalize !== 'boolean') throw new UserError('field "Canonicalize" must be a boolean');
      if (Variables !== undefined && typeof Variables !== 'string') throw new UserError('field "Variables" must be a string');
      const { parseJobspec } = await import('../../jobspec/index.js');
      let job;
      try {
        // No env and no base directory: a submitted file must not read the server's environment or disk.
        job = await parseJobspec(JobHCL, { varFiles: Variables ? [{ name: 'variables.hcl', content: Variables }] : [] });
      } catch (err) {
        throw new UserError(`Failed to parse job: ${(err as Error).message}`);
      }
      return { body: Canonicalize ? canonicalizeJob(job) : job };
    },
  }),
];
