/**
 * /ui/jobs/run, as `job plan` then `job run`: a job file (HCL, or the API's JSON) and its variables,
 * planned first, so the scheduler's dry run shows what would change (the diff, the allocations each group
 * would create, update or destroy, what could not be placed), then run only if the job is still at the
 * version the plan saw (EnforceIndex with the plan's JobModifyIndex). A job file that does not parse
 * says where, with the line it names shown.
 */
import { useState } from 'preact/hooks';
import { call, ApiError } from '../api.js';
import { useCan } from '../acl.js';
import { jobAddress, Link, navigate, useLocation } from '../router.js';
import { Problem } from './problem.js';
import { DiffTree } from './job-diff.js';
import { PlacementFailures } from './job-placement.js';
import type { DesiredUpdates, PlanResponse, RegisterResponse } from './job-types.js';
import { errorPosition, variablesFile, VARIABLES_FILE, type SourcePosition } from './job-variables.js';
import { jobPath } from '../wire.js';
import { caretToLine } from '../caret.js';

const EXAMPLE = `job "example" {
  datacenters = ["dc1"]

  group "web" {
    count = 1

    task "server" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do sleep 1; done"]
      }
    }
  }
}
`;

type ApiJob = Record<string, unknown> & { ID?: string; Namespace?: string };

/**
 * The API job a text is: JSON in the API's shape as it is (bare or under "Job"), anything else parsed by
 * the server in the page's namespace. Not canonicalized here (the plan and the register do it), so a job
 * file that names no namespace stays without one and lands in the page's.
 */
async function jobOf(source: string, variables: string, namespace: string): Promise<{ job: ApiJob; format: 'hcl2' | 'json' }> {
  if (source.trimStart().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object') {
      const obj = parsed as Record<string, unknown>;
      if (obj.Job && typeof obj.Job === 'object') return { job: obj.Job as ApiJob, format: 'json' };
      if ('ID' in obj || 'TaskGroups' in obj) return { job: obj as ApiJob, format: 'json' };
    }
  }
  const { data } = await call<ApiJob>('/v1/jobs/parse', { method: 'POST', query: { namespace }, body: { JobHCL: source, Variables: variables } });
  return { job: data, format: 'hcl2' };
}

interface Planned {
  job: ApiJob;
  namespace: string;
  format: 'hcl2' | 'json';
  plan: PlanResponse;
  /** what was planned, so an edit after the plan asks for a new one */
  source: string;
  variables: string;
}

const UPDATE_COLUMNS: Array<[keyof DesiredUpdates, string]> = [
  ['Place', 'Create'],
  ['DestructiveUpdate', 'Destroy and replace'],
  ['InPlaceUpdate', 'Update in place'],
  ['Stop', 'Destroy'],
  ['Migrate', 'Migrate'],
  ['Canary', 'Canary'],
  ['Ignore', 'Unchanged'],
];

function Annotations(props: { updates: Record<string, DesiredUpdates> | null | undefined }) {
  const groups = Object.keys(props.updates ?? {}).sort();
  if (groups.length === 0) return null;
  return (
    <table class="list" data-testid="plan-updates">
      <thead>
        <tr>
          <th>Task group</th>
          {UPDATE_COLUMNS.map(([, label]) => (
            <th key={label}>{label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g} data-group={g}>
            <td>{g}</td>
            {UPDATE_COLUMNS.map(([key, label]) => (
              <td key={label} data-update={key}>
                {props.updates![g][key] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The line an error names, with the two either side, the named one marked. */
function SourceExcerpt(props: { source: string; position: SourcePosition }) {
  const lines = props.source.split('\n');
  const { line, column } = props.position;
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const shown = [];
  for (let n = from; n <= to; n++) {
    shown.push(
      <div key={n} class={n === line ? 'source-line error-line' : 'source-line'} data-testid={n === line ? 'error-line' : undefined} data-line={n}>
        <span class="line-number">{n}</span>
        <span class="line-text">{lines[n - 1]}</span>
      </div>,
    );
    if (n === line) {
      shown.push(
        <div key={`${n}-caret`} class="source-line caret">
          <span class="line-number" />
          <span class="line-text">{`${' '.repeat(Math.max(0, column - 1))}^`}</span>
        </div>,
      );
    }
  }
  return <pre class="source">{shown}</pre>;
}

/** Puts the cursor of the textarea named `id` at the start of a line. */
function focusLine(id: string, source: string, line: number): void {
  const area = document.getElementById(id) as HTMLTextAreaElement | null;
  if (area) caretToLine(area, source, line);
}

export function RunJobPage() {
  const can = useCan();
  const pageNamespace = useLocation().query.get('namespace') || 'default';
  // A token that may not submit in the page's namespace gets the editor but no way to send it.
  const mayRun = can?.job('submit-job', pageNamespace) ?? false;
  const [source, setSource] = useState(EXAMPLE);
  const [variables, setVariables] = useState('');
  const [planned, setPlanned] = useState<Planned | undefined>();
  const [error, setError] = useState<{ message: string; position?: SourcePosition; text?: string; denied?: ApiError } | undefined>();
  const [busy, setBusy] = useState(false);
  const current = planned && planned.source === source && planned.variables === variables ? planned : undefined;

  const plan = async () => {
    setBusy(true);
    setError(undefined);
    setPlanned(undefined);
    let vars = '';
    try {
      vars = variablesFile(variables);
      const { job, format } = await jobOf(source, vars, pageNamespace);
      const namespace = job.Namespace || pageNamespace;
      if (!can?.job('submit-job', namespace)) throw new Error(`This token may not submit jobs in namespace "${namespace}".`);
      const { data } = await call<PlanResponse>(jobPath(String(job.ID ?? ''), '/plan'), { method: 'POST', query: { namespace }, body: { Job: job, Diff: true } });
      setPlanned({ job, namespace, format, plan: data, source, variables });
    } catch (err) {
      const message = (err as Error).message;
      const position = errorPosition(message);
      const text = position?.file === VARIABLES_FILE ? vars : source;
      setError({ message, position, text, denied: err instanceof ApiError && err.status === 403 ? err : undefined });
      if (position && position.file !== VARIABLES_FILE) focusLine('run-spec', source, position.line);
    } finally {
      setBusy(false);
    }
  };

  const run = async () => {
    if (!current) return;
    setBusy(true);
    setError(undefined);
    try {
      const id = String(current.job.ID ?? '');
      await call<RegisterResponse>('/v1/jobs', {
        method: 'POST',
        query: { namespace: current.namespace },
        body: {
          Job: current.job,
          EnforceIndex: true,
          JobModifyIndex: current.plan.JobModifyIndex,
          Submission: { Source: current.source, Format: current.format, ...(current.format === 'hcl2' && current.variables.trim() !== '' ? { Variables: variablesFile(current.variables) } : {}) },
        },
      });
      navigate(jobAddress(id, current.namespace));
    } catch (err) {
      setError({ message: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const p = current?.plan;
  return (
    <section data-permissions={can ? 'known' : 'pending'}>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link>
      </p>
      <h1>Run a job</h1>
      <div class="run-editor">
        <label class="field">
          <span>Job file (HCL or JSON)</span>
          <textarea id="run-spec" data-testid="run-spec" rows={22} spellcheck={false} value={source} onInput={(e) => setSource((e.target as HTMLTextAreaElement).value)} />
        </label>
        <label class="field">
          <span>Variables (one name=value a line)</span>
          <textarea data-testid="run-variables" rows={5} spellcheck={false} value={variables} onInput={(e) => setVariables((e.target as HTMLTextAreaElement).value)} />
        </label>
      </div>
      {can && !mayRun && (
        <p class="notice" data-testid="run-denied">
          This token may not submit jobs in namespace "{pageNamespace}": sign in with one that may to plan and run this job.
        </p>
      )}
      {mayRun && (
        <div class="toolbar">
          <button type="button" data-testid="run-plan" disabled={busy || source.trim() === ''} onClick={plan}>
            Plan
          </button>
          <button type="button" class="active" data-testid="run-submit" disabled={busy || !current} onClick={run}>
            Run
          </button>
          {planned && !current && <span class="muted">The job changed since it was planned: plan it again.</span>}
        </div>
      )}
      {error && (
        <div data-testid="run-error">
          {error.denied ? (
            <Problem error={error.denied} />
          ) : (
            <p class="error" role="alert">
              {error.message}
            </p>
          )}
          {error.position && error.text !== undefined && <SourceExcerpt source={error.text} position={error.position} />}
        </div>
      )}
      {p && (
        <div data-testid="plan">
          <h2>Plan</h2>
          {p.Warnings && (
            <p class="notice" data-testid="plan-warnings">
              {p.Warnings}
            </p>
          )}
          <DiffTree diff={p.Diff} />
          <h2>Scheduler</h2>
          <Annotations updates={p.Annotations?.DesiredTGUpdates} />
          {Object.keys(p.FailedTGAllocs ?? {}).length > 0 ? (
            <PlacementFailures failed={p.FailedTGAllocs} />
          ) : (
            <p class="muted" data-testid="plan-placed">
              All allocations can be placed.
            </p>
          )}
          {p.NextPeriodicLaunch && !p.NextPeriodicLaunch.startsWith('0001-') && <p class="muted">Next periodic launch: {new Date(p.NextPeriodicLaunch).toLocaleString()}</p>}
        </div>
      )}
    </section>
  );
}
