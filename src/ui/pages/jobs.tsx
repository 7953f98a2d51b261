/**
 * /ui/jobs: every job the token may read, live. Filtered by namespace (all by default) and by an ID
 * prefix, a page at a time (the listing's next_token), all three kept in the address so a reload or a
 * shared link shows the same list.
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useCan } from '../acl.js';
import { useLive } from '../live.js';
import { jobAddress, Link, navigate, withQuery, type Location } from '../router.js';
import type { JobStub, JobSummary, Namespace } from '../types.js';
import { Problem } from './problem.js';

const PER_PAGE = '50';

const COUNTS = ['Queued', 'Starting', 'Running', 'Failed', 'Complete', 'Lost', 'Unknown'] as const;

function totals(summary: JobSummary | undefined): Record<(typeof COUNTS)[number], number> {
  const out = Object.fromEntries(COUNTS.map((c) => [c, 0])) as Record<(typeof COUNTS)[number], number>;
  for (const group of Object.values(summary?.Summary ?? {})) for (const c of COUNTS) out[c] += group[c] ?? 0;
  return out;
}

export function SummaryCounts(props: { summary?: JobSummary }) {
  const t = totals(props.summary);
  const shown = COUNTS.filter((c) => t[c] > 0);
  if (shown.length === 0) return <span class="muted">no allocations</span>;
  return (
    <span class="counts">
      {shown.map((c) => (
        <span key={c} class={`count count-${c.toLowerCase()}`}>
          {c.toLowerCase()} {t[c]}
        </span>
      ))}
    </span>
  );
}

export function JobsPage(props: { loc: Location }) {
  const { loc } = props;
  const namespace = loc.query.get('namespace') ?? '*';
  const prefix = loc.query.get('prefix') ?? '';
  const page = loc.query.get('next_token') ?? '';
  const jobs = useLive<JobStub[]>('/v1/jobs', { namespace, prefix, next_token: page, per_page: PER_PAGE });
  const [namespaces, setNamespaces] = useState<Namespace[]>([]);
  const can = useCan();
  // The namespaces change rarely: read once, so this view keeps one request in flight, the jobs'.
  useEffect(() => {
    call<Namespace[]>('/v1/namespaces').then(
      ({ data }) => setNamespaces(data ?? []),
      () => setNamespaces([]),
    );
  }, []);

  // The run page's namespace: the filter's, or with all shown "default", else the first the token may submit in.
  const runNamespace = namespace !== '*' ? namespace : ['default', ...namespaces.map((n) => n.Name)].find((n) => can?.job('submit-job', n));
  return (
    <section data-permissions={can ? 'known' : 'pending'}>
      <h1>
        Jobs
        {runNamespace !== undefined && can?.job('submit-job', runNamespace) && (
          <Link to={`/jobs/run?namespace=${encodeURIComponent(runNamespace)}`} class="button">
            Run job
          </Link>
        )}
      </h1>
      <div class="toolbar">
        <label>
          Namespace{' '}
          <select value={namespace} onChange={(e) => navigate(withQuery('/jobs', loc, { namespace: (e.target as HTMLSelectElement).value, next_token: undefined }), { replace: true })}>
            <option value="*">All</option>
            {namespaces.map((n) => (
              <option key={n.Name} value={n.Name}>
                {n.Name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input type="search" placeholder="ID prefix" value={prefix} onInput={(e) => navigate(withQuery('/jobs', loc, { prefix: (e.target as HTMLInputElement).value, next_token: undefined }), { replace: true })} />
        </label>
      </div>
      {jobs.error && <Problem error={jobs.error} />}
      {jobs.data && jobs.data.length === 0 && <p class="muted">No jobs{prefix ? ` starting with “${prefix}”` : ''}.</p>}
      {jobs.data && jobs.data.length > 0 && (
        <table class="list" data-testid="jobs">
          <thead>
            <tr>
              <th>ID</th>
              <th>Type</th>
              <th>Status</th>
              <th>Namespace</th>
              <th>Priority</th>
              <th>Allocations</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((job) => (
              <tr key={`${job.Namespace}/${job.ID}`}>
                <td>
                  <Link to={jobAddress(job.ID, job.Namespace)}>{job.ID}</Link>
                  {job.Name && job.Name !== job.ID && <div class="muted">{job.Name}</div>}
                </td>
                <td>{job.Type}</td>
                <td>
                  <span class={`status status-${job.Status}`}>{job.Status}</span>
                </td>
                <td>{job.Namespace}</td>
                <td>{job.Priority}</td>
                <td>
                  <SummaryCounts summary={job.JobSummary} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager">
        {page && <Link to={withQuery('/jobs', loc, { next_token: undefined })}>First page</Link>}
        {jobs.nextToken && <Link to={withQuery('/jobs', loc, { next_token: jobs.nextToken })}>Next page</Link>}
      </nav>
    </section>
  );
}
