/**
 * Nomad's deployment screens, shared by `job status`, `job deployments`, the `deployment` commands and
 * the deployment monitor of `job run`: the key/value block, the `Deployed` table of task groups, the
 * deployment list, and the frames the monitor prints.
 *
 * Pure functions of their input (and of the clock passed in), so they are unit-tested without a server.
 */
import { formatTable } from './format.js';
import { PLAIN, type Palette } from './colour.js';
import { formatKV, formatTime, limit, parseWireTime, quote, sortedKeys } from './nomad.js';

/** The fields of a deployment's task group state the screens read. */
export interface DeploymentGroupView {
  AutoRevert?: boolean;
  Promoted?: boolean;
  DesiredCanaries?: number;
  DesiredTotal: number;
  PlacedAllocs: number;
  HealthyAllocs: number;
  UnhealthyAllocs: number;
  /** nanoseconds; the Progress Deadline column is shown when a group has one */
  ProgressDeadline?: number;
  /** RFC3339 */
  RequireProgressBy?: string;
}

/** The fields of a deployment the screens read. */
export interface DeploymentView {
  ID: string;
  JobID?: string;
  JobVersion?: number;
  Status: string;
  StatusDescription: string;
  TaskGroups: Record<string, DeploymentGroupView> | null;
}

/** Whether a group has a progress deadline (older answers without ProgressDeadline: a RequireProgressBy). */
function hasDeadline(s: DeploymentGroupView): boolean {
  if (s.ProgressDeadline !== undefined) return s.ProgressDeadline !== 0;
  return parseWireTime(s.RequireProgressBy) !== undefined;
}

/**
 * Nomad's formatDeploymentGroups: `Task Group  [Auto Revert]  [Promoted]  Desired  [Canaries]  Placed
 * Healthy  Unhealthy  [Progress Deadline]`, groups sorted by name. Auto Revert appears when some group
 * reverts automatically, Promoted and Canaries when some group has canaries, Progress Deadline (an
 * absolute local time, `N/A` when not set) when some group has one. "" when there are no groups.
 */
export function deploymentGroupsTable(d: Pick<DeploymentView, 'TaskGroups'>): string {
  const groups = sortedKeys(d.TaskGroups);
  if (groups.length === 0) return '';
  const states = groups.map((g) => d.TaskGroups![g]);
  const autoRevert = states.some((s) => s.AutoRevert === true);
  const canaries = states.some((s) => (s.DesiredCanaries ?? 0) > 0);
  const deadline = states.some(hasDeadline);
  const headers = [
    'Task Group',
    ...(autoRevert ? ['Auto Revert'] : []),
    ...(canaries ? ['Promoted'] : []),
    'Desired',
    ...(canaries ? ['Canaries'] : []),
    'Placed',
    'Healthy',
    'Unhealthy',
    ...(deadline ? ['Progress Deadline'] : []),
  ];
  const rows = groups.map((g, i) => {
    const s = states[i];
    const by = parseWireTime(s.RequireProgressBy);
    return [
      g,
      ...(autoRevert ? [String(s.AutoRevert === true)] : []),
      ...(canaries ? [(s.DesiredCanaries ?? 0) > 0 ? String(s.Promoted === true) : 'N/A'] : []),
      String(s.DesiredTotal),
      ...(canaries ? [String(s.DesiredCanaries ?? 0)] : []),
      String(s.PlacedAllocs),
      String(s.HealthyAllocs),
      String(s.UnhealthyAllocs),
      ...(deadline ? [by === undefined ? 'N/A' : formatTime(new Date(by))] : []),
    ];
  });
  return formatTable(headers, rows);
}

/** A key/value block followed by the `Deployed` table when the deployment has groups. */
function withGroups(kv: string, d: DeploymentView): string {
  const table = deploymentGroupsTable(d);
  return table ? `${kv}\nDeployed\n${table}` : kv;
}

/** Nomad's formatDeployment (`deployment status`, the monitor): `ID, Job ID, Job Version, Status, Description` and `Deployed`. */
export function formatDeployment(d: DeploymentView, length: number): string {
  return withGroups(
    formatKV([
      ['ID', limit(d.ID, length)],
      ['Job ID', d.JobID ?? ''],
      ['Job Version', String(d.JobVersion ?? 0)],
      ['Status', d.Status],
      ['Description', d.StatusDescription],
    ]),
    d,
  );
}

/** `job status`'s `Latest Deployment` section: `ID, Status, Description` and `Deployed`. */
export function latestDeploymentSection(d: DeploymentView, length: number): string {
  return '\nLatest Deployment\n' + withGroups(formatKV([['ID', limit(d.ID, length)], ['Status', d.Status], ['Description', d.StatusDescription]]), d);
}

/** Nomad's formatDeployments: `ID  Job ID  Job Version  Status  Description`, or `No deployments found`. */
export function deploymentListTable(deployments: DeploymentView[], length: number): string {
  if (deployments.length === 0) return 'No deployments found\n';
  return formatTable(
    ['ID', 'Job ID', 'Job Version', 'Status', 'Description'],
    deployments.map((d) => [limit(d.ID, length), d.JobID ?? '', String(d.JobVersion ?? 0), d.Status, d.StatusDescription]),
  );
}

/** Statuses after which a deployment does not change again. */
export const TERMINAL_DEPLOYMENT_STATUSES: ReadonlySet<string> = new Set(['successful', 'failed', 'cancelled', 'blocked']);

/** The version a failed deployment's description says it is rolling back to, if it says so. */
export function rollbackVersion(description: string): number | undefined {
  const m = / - rolling back to job version (\d+)$/.exec(description);
  return m ? Number(m[1]) : undefined;
}

/** Indents every non-empty line. */
export function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/**
 * What the deployment monitor shows for one state of a deployment, as Nomad lays it out under the
 * evaluation monitor: the time it was read, then the deployment (and, with -verbose, its allocations),
 * indented by four. Ends with a newline.
 */
export function monitorBlock(d: DeploymentView, opts: { length: number; time: Date; allocations?: string }): string {
  let body = `${formatTime(opts.time)}\n${formatDeployment(d, opts.length)}`;
  if (opts.allocations !== undefined) body += `\nAllocations\n${opts.allocations}`;
  return indent(body.replace(/\n+$/, ''), 4) + '\n';
}

/**
 * The monitor's status line: `Deployment "3eefc5eb" in progress...` while it runs, then `✓ Deployment
 * "3eefc5eb" successful` or `! Deployment "3eefc5eb" failed` (also cancelled), the mark green, red or
 * yellow in `palette`. Indented by two, as Nomad's.
 */
export function monitorStatusLine(id: string, status: string, length: number, palette: Palette = PLAIN): string {
  const name = `Deployment ${quote(limit(id, length))}`;
  if (!TERMINAL_DEPLOYMENT_STATUSES.has(status)) return `  ${name} in progress...`;
  const ok = status === 'successful';
  const mark = ok ? palette.green('✓') : status === 'failed' ? palette.red('!') : palette.yellow('!');
  return `  ${mark} ${name} ${status}`;
}
