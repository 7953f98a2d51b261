/** /v1/jobs: list and register; /v1/jobs/parse: a job file to API JSON. */
import { UserError } from '../../shared/errors.js';
import { JOBS_TABLE } from '../state/jobs.js';
import { JOB_STUBS, fullJobs, jobStubRecord, jobStubs, type JobStubRecord } from '../state/job-stubs.js';
import { jobKey } from '../state/tables.js';
import { JOB_SUMMARIES, emptyGroupSummary, getSummary, type JobSummary } from '../state/allocs.js';
import { canonicalizeJob, type Job } from '../structs/index.js';
import { compileFilter } from '../filter/index.js';
import { forEachYielding, streamedList } from './json-stream.js';
import { register } from './job-register.js';
import { defineRoute } from './route.js';

/** The JobListStub of a job, with its summary as stored (allocations counted by status). */
export function jobStub(job: JobStubRecord, summary: JobSummary | undefined, withMeta: boolean) {
  // The stub record holds the list fields in Nomad's order; the summary goes between them and the indexes.
  const { TaskGroupNames, CreateIndex, ModifyIndex, JobModifyIndex, SubmitTime, Meta, ...head } = job;
  return {
    ...head,
    JobSummary: summary ?? {
      JobID: job.ID,
      Namespace: job.Namespace,
      Summary: Object.fromEntries(TaskGroupNames.map((name) => [name, emptyGroupSummary()])),
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex,
      ModifyIndex,
    },
    CreateIndex,
    ModifyIndex,
    JobModifyIndex,
    SubmitTime,
    ...(withMeta ? { Meta } : {}),
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
      const { store } = req.services;
      const { acl } = req.caller;
      const prefix = req.query.get<string>('prefix');
      const perPage = req.query.get<number>('per_page');
      if (!Number.isInteger(perPage) || perPage < 0) throw new UserError(`per_page must be a whole number of 0 or more, got ${perPage}`);
      const token = req.query.get<string>('next_token');
      const filterText = req.query.get<string>('filter');
      const filter = filterText ? compileFilter(filterText) : undefined;
      const withMeta = req.query.get<boolean>('meta');
      // The tables' index, so a deletion or a summary change also moves it and wakes blocked listings.
      const index = Math.max(1, store.tableIndex(JOBS_TABLE), store.tableIndex(JOB_SUMMARIES));
      // A well-formed token is where the walk starts; the comparison also places any other token exactly
      // as the paginator always did.
      const start = token.includes('.') ? jobKey(token.slice(0, token.indexOf('.')), token.slice(token.indexOf('.') + 1)) : undefined;
      const tokenOf = (j: { Namespace: string; ID: string }) => `${j.Namespace}.${j.ID}`;
      const listed = (j: { Namespace: string; ID: string }) =>
        (req.namespace !== '*' || acl.allowsNamespace(j.Namespace, 'list-jobs')) && (token === '' || compareJobTokens(tokenOf(j), token) >= 0);
      const render = (j: JobStubRecord) => jobStub(j, getSummary(store, j.Namespace, j.ID), withMeta);
      if (perPage > 0) {
        // Filters see the full job, not the stub, so selectors such as TaskGroups or Meta work (Nomad).
        const page: JobStubRecord[] = [];
        let nextToken: string | undefined;
        const source: Iterable<JobStubRecord | Job> = filter ? fullJobs(store, req.namespace, prefix, start) : jobStubs(store, req.namespace, prefix, start);
        await forEachYielding(source, (j) => {
          if (!listed(j) || (filter && !filter(j))) return;
          if (page.length === perPage) {
            nextToken = tokenOf(j);
            return false;
          }
          page.push(filter ? jobStubRecord(j as Job) : (j as JobStubRecord));
        });
        return { body: page.map(render), index, headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined };
      }
      if (!filter) return streamedList(index, jobStubs(store, req.namespace, prefix, start), (j) => (listed(j) ? render(j) : undefined));
      // A filter can fail on any job, which must be a 400 rather than a cut stream: select first (keeping
      // only keys), then stream the stubs of what was selected.
      const selected: string[] = [];
      await forEachYielding(fullJobs(store, req.namespace, prefix, start), (j) => {
        if (listed(j) && filter(j)) selected.push(jobKey(j.Namespace, j.ID));
      });
      return streamedList(index, selected, (key) => {
        const stub = store.get<JobStubRecord>(JOB_STUBS, key);
        return stub ? render(stub) : undefined;
      });
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
