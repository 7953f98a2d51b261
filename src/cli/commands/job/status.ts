/**
 * `svc job status`: Nomad's job list, or one job's header and summary. Also home of what the other job
 * commands share with it: Nomad's key/value and list layouts, its timestamps, and job ID prefix lookup
 * (whose ambiguity message is this command's list table).
 */
import { defineCommand, type CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { formatTable } from '../../output/format.js';
import type { ApiClient } from '../../../api/client.js';

/** A failure the command reports as one message on stderr, exit 1, without the "Error: " prefix. */
export class JobCommandFailure extends Error {}

/** Runs a job command body, turning JobCommandFailure into its message and exit code 1. */
export async function reportingFailures(ctx: CommandContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof JobCommandFailure) {
      ctx.io.err(err.message);
      return 1;
    }
    throw err;
  }
}

export interface JobSummaryCounts {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
  Unknown: number;
}

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

/** Go's time.RFC3339 of a nanosecond timestamp in local time; "" for the epoch, as Nomad's formatTime. */
export function formatNomadTime(ns: number): string {
  const ms = Math.floor(ns / 1e6);
  if (ms < 1000) return '';
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}${zone}`;
}

/** Nomad's formatKV: keys padded to one width, ` = `, empty values shown as `<none>`. */
export function formatKV(rows: Array<[string, string]>): string {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)} = ${v === '' ? '<none>' : v}`.trimEnd()).join('\n') + '\n';
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

function allNamespaces(ctx: CommandContext): boolean {
  return ((ctx.flags.namespace as string | undefined) || ctx.env.SVC_NAMESPACE) === '*';
}

/**
 * The job a user means by an ID or ID prefix: an exact ID wins, a unique prefix is accepted, several
 * matches are refused with the list of them (as Nomad).
 */
export async function resolveJob(ctx: CommandContext, client: ApiClient, typed: string): Promise<JobListStub> {
  const prefix = typed.trim();
  const jobs = await listJobs(client, prefix);
  if (jobs.length === 0) throw new JobCommandFailure(`No job(s) with prefix or id "${prefix}" found`);
  const exact = jobs.filter((j) => j.ID === prefix);
  if (exact.length === 1) return exact[0];
  if (jobs.length === 1) return jobs[0];
  const listed = exact.length > 1 ? exact : jobs;
  throw new JobCommandFailure(`Prefix matched multiple jobs\n\n${jobListTable(listed, allNamespaces(ctx))}`);
}

export function jobPath(id: string, suffix = ''): string {
  return `/v1/job/${encodeURIComponent(id)}${suffix}`;
}

interface FullJob {
  ID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Priority: number;
  Datacenters: string[] | null;
  NodePool: string;
  Status: string;
  Stop: boolean;
  SubmitTime: number;
  Periodic: unknown;
  ParameterizedJob: { Payload?: string; MetaRequired?: string[] | null; MetaOptional?: string[] | null } | null;
}

function summarySection(stub: JobListStub, job: FullJob): string {
  const periodic = job.Periodic !== null && job.Periodic !== undefined;
  const parameterized = job.ParameterizedJob !== null && job.ParameterizedJob !== undefined;
  let out = '';
  if (!periodic && !parameterized) {
    const groups = Object.keys(stub.JobSummary?.Summary ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const rows = groups.map((g) => {
      const s = stub.JobSummary.Summary[g];
      return [g, s.Queued, s.Starting, s.Running, s.Failed, s.Complete, s.Lost, s.Unknown].map(String);
    });
    out += '\nSummary\n' + formatTable(['Task Group', 'Queued', 'Starting', 'Running', 'Failed', 'Complete', 'Lost', 'Unknown'], rows);
  }
  const children = stub.JobSummary?.Children;
  // Nomad always shows the children of periodic and parameterized parents, and of others only when any exist.
  if (children && (periodic || parameterized || children.Pending + children.Running + children.Dead > 0)) {
    out += `\n${parameterized ? 'Parameterized Job Summary' : 'Children Job Summary'}\n`;
    out += formatTable(['Pending', 'Running', 'Dead'], [[String(children.Pending), String(children.Running), String(children.Dead)]]);
  }
  return out;
}

async function childrenSection(client: ApiClient, job: FullJob, suffix: string, none: string, title: string): Promise<string> {
  const children = (await listJobs(client, job.ID + suffix)).filter((c) => c.ParentID === job.ID);
  if (children.length === 0) return `\n${none}\n`;
  return `\n${title}\n` + formatTable(['ID', 'Status'], children.map((c) => [c.ID, c.Status]));
}

export default defineCommand({
  path: ['job', 'status'],
  synopsis: 'Display status information about a job',
  usage: 'svc job status [options] [JOB]',
  description:
    'Without a job, lists the jobs of the namespace (-namespace=* lists every namespace the token can see). ' +
    'With a job ID or a unique ID prefix, shows the job and the summary of its task groups.',
  examples: [
    { command: 'svc job status', description: 'List the jobs' },
    { command: 'svc job status example' },
    { command: 'svc job status -json example', description: 'Print the job as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [{ name: 'short', type: 'bool', description: 'Print only the job\'s header, without the summary.' }],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', complete: 'job' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const client = clientFor(ctx);
      if (ctx.args.length === 0) {
        const jobs = await listJobs(client);
        if (ctx.flags.json === true) {
          ctx.io.out(JSON.stringify(jobs, null, 4));
          return 0;
        }
        ctx.io.out(jobs.length === 0 ? 'No running jobs' : jobListTable(jobs, allNamespaces(ctx)));
        return 0;
      }
      const stub = await resolveJob(ctx, client, ctx.args[0]);
      const { body: job } = await client.scheduler<FullJob>('GET', jobPath(stub.ID), { query: { namespace: stub.Namespace } });
      if (ctx.flags.json === true) {
        ctx.io.out(JSON.stringify(job, null, 4));
        return 0;
      }
      const periodic = job.Periodic !== null && job.Periodic !== undefined;
      const parameterized = job.ParameterizedJob !== null && job.ParameterizedJob !== undefined;
      let out = formatKV([
        ['ID', job.ID],
        ['Name', job.Name],
        ['Submit Date', formatNomadTime(job.SubmitTime)],
        ['Type', job.Type],
        ['Priority', String(job.Priority)],
        ['Datacenters', (job.Datacenters ?? []).join(',')],
        ['Namespace', job.Namespace],
        ['Node Pool', job.NodePool],
        ['Status', statusString(job.Status, job.Stop)],
        ['Periodic', String(periodic)],
        ['Parameterized', String(parameterized)],
      ]);
      if (ctx.flags.short === true) {
        ctx.io.out(out);
        return 0;
      }
      const scoped = clientFor({ ...ctx, flags: { ...ctx.flags, namespace: stub.Namespace } });
      if (periodic && !parameterized) {
        out += summarySection(stub, job);
        out += await childrenSection(scoped, job, '/periodic-', 'No instances of periodic job found', 'Previously Launched Jobs');
      } else if (parameterized) {
        const p = job.ParameterizedJob!;
        out += '\nParameterized Job\n';
        out += formatKV([
          ['Payload', p.Payload ?? ''],
          ['Required Metadata', (p.MetaRequired ?? []).join(', ')],
          ['Optional Metadata', (p.MetaOptional ?? []).join(', ')],
        ]);
        out += summarySection(stub, job);
        out += await childrenSection(scoped, job, '/dispatch-', 'No dispatched instances of parameterized job found', 'Dispatched Jobs');
      } else {
        out += summarySection(stub, job);
      }
      ctx.io.out(out);
      return 0;
    });
  },
});
