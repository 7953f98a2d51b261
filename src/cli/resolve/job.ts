/**
 * The job a user names by an ID or a unique ID prefix, and Nomad's job list table: the ambiguity
 * message of the lookup, and `svc job status` without a job.
 */
import type { CommandContext } from '../define.js';
import type { ApiClient } from '../../api/http/client.js';
import { formatTable } from '../output/format.js';
import { formatNomadTime } from '../output/nomad.js';
import { resolveByPrefix } from '../prefix.js';
import type { GroupSummary as JobSummaryCounts } from '../../scheduler/state/allocs.js';

export interface JobListStub {
  ID: string;
  ParentID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Priority: number;
  Periodic: boolean;
  ParameterizedJob: boolean;
  Stop: boolean;
  Status: string;
  SubmitTime: number;
  JobSummary: {
    Namespace: string;
    Summary: Record<string, JobSummaryCounts>;
    Children: { Pending: number; Running: number; Dead: number } | null;
  };
}

function typeString(job: JobListStub): string {
  return job.Type + (job.Periodic ? '/periodic' : '') + (job.ParameterizedJob ? '/parameterized' : '');
}

export function statusString(status: string, stop: boolean): string {
  return stop ? `${status} (stopped)` : status;
}

/** The job list table; a Namespace column when listing every namespace. */
export function jobListTable(jobs: JobListStub[], withNamespace: boolean): string {
  const headers = withNamespace ? ['ID', 'Namespace', 'Type', 'Priority', 'Status', 'Submit Date'] : ['ID', 'Type', 'Priority', 'Status', 'Submit Date'];
  const rows = jobs.map((j) => [
    j.ID,
    ...(withNamespace ? [j.JobSummary?.Namespace ?? j.Namespace] : []),
    typeString(j),
    String(j.Priority),
    statusString(j.Status, j.Stop),
    formatNomadTime(j.SubmitTime),
  ]);
  return formatTable(headers, rows);
}

/** The Go client sorts job lists by ID; the server orders by namespace first. */
function byId(jobs: JobListStub[]): JobListStub[] {
  return [...jobs].sort((a, b) => (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : a.Namespace < b.Namespace ? -1 : a.Namespace > b.Namespace ? 1 : 0));
}

export async function listJobs(client: ApiClient, prefix?: string): Promise<JobListStub[]> {
  const { body } = await client.scheduler<JobListStub[]>('GET', '/v1/jobs', { query: prefix !== undefined ? { prefix } : {} });
  return byId(body ?? []);
}

/** -namespace=*: the list shows a Namespace column. */
export function allNamespaces(ctx: CommandContext): boolean {
  return ctx.flags.namespace === '*';
}

/**
 * The job a user means by an ID or ID prefix: an exact ID wins, a unique prefix is accepted, several
 * matches are refused with the list of them (as Nomad).
 */
export async function resolveJob(ctx: CommandContext, client: ApiClient, typed: string): Promise<JobListStub> {
  return resolveByPrefix<JobListStub>(
    {
      plural: 'jobs',
      notFound: (prefix) => `No job(s) with prefix or id "${prefix}" found`,
      list: (prefix) => listJobs(client, prefix),
      idOf: (j) => j.ID,
      table: (jobs) => jobListTable(jobs, allNamespaces(ctx)),
    },
    typed,
  );
}
