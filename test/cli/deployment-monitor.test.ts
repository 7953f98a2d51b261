/**
 * The deployment screens and the deployment monitor without a server: the Deployed table's optional
 * columns, the list, the blocks the monitor prints as a scripted deployment changes, its exit codes,
 * following a rollback, and redrawing in place on a terminal.
 */
import { describe, expect, it } from 'vitest';
import {
  deploymentGroupsTable,
  deploymentListTable,
  formatDeployment,
  latestDeploymentSection,
  monitorBlock,
  monitorStatusLine,
  rollbackVersion,
} from '../../src/cli/output/deployment.js';
import { formatTime } from '../../src/cli/output/nomad.js';
import { LiveRegion, monitorDeployment, terminalRows } from '../../src/cli/deployment-monitor.js';
import { followEvaluation } from '../../src/cli/monitor.js';
import type { Deployment, DeploymentGroupState } from '../../src/api/deployments.js';
import type { Evaluation } from '../../src/api/evals.js';
import { ApiError } from '../../src/shared/errors.js';
import { loadPalette } from '../../src/cli/output/colour.js';

const ID = '3eefc5eb-0000-4000-8000-000000000001';
const ROLLBACK = '7a11bac0-0000-4000-8000-000000000002';
const DEADLINE = '2026-08-21T10:10:00Z';
const local = (rfc3339: string) => formatTime(new Date(Date.parse(rfc3339)));

function group(over: Partial<DeploymentGroupState> = {}): DeploymentGroupState {
  return {
    AutoRevert: false,
    AutoPromote: false,
    ProgressDeadline: 600e9,
    RequireProgressBy: DEADLINE,
    Promoted: false,
    PlacedCanaries: null,
    DesiredCanaries: 0,
    DesiredTotal: 2,
    PlacedAllocs: 2,
    HealthyAllocs: 0,
    UnhealthyAllocs: 0,
    ...over,
  };
}

function deployment(over: Partial<Deployment> = {}): Deployment {
  return {
    ID,
    Namespace: 'default',
    JobID: 'web',
    JobVersion: 3,
    JobModifyIndex: 10,
    JobSpecModifyIndex: 10,
    JobCreateIndex: 5,
    IsMultiregion: false,
    TaskGroups: { web: group() },
    Status: 'running',
    StatusDescription: 'Deployment is running',
    EvalPriority: 50,
    CreateIndex: 11,
    ModifyIndex: 11,
    CreateTime: 0,
    ModifyTime: 0,
    ...over,
  };
}

describe('the Deployed table', () => {
  it('has Task Group, Desired, Placed, Healthy, Unhealthy, and Progress Deadline as a local time', () => {
    expect(deploymentGroupsTable(deployment())).toBe(
      `Task Group  Desired  Placed  Healthy  Unhealthy  Progress Deadline\nweb         2        2       0        0          ${local(DEADLINE)}\n`,
    );
  });

  it('adds Auto Revert only when some group reverts, and sorts the groups', () => {
    const d = deployment({ TaskGroups: { web: group({ AutoRevert: true }), api: group({ DesiredTotal: 1, PlacedAllocs: 1, HealthyAllocs: 1 }) } });
    const lines = deploymentGroupsTable(d).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Task Group +Auto Revert +Desired +Placed +Healthy +Unhealthy +Progress Deadline$/);
    expect(lines[1]).toMatch(/^api +false +1 +1 +1 +0 +\S+$/);
    expect(lines[2]).toMatch(/^web +true +2 +2 +0 +0 +\S+$/);
  });

  it('leaves out Progress Deadline when no group has one, shows N/A for a group without', () => {
    expect(deploymentGroupsTable(deployment({ TaskGroups: { web: group({ ProgressDeadline: 0, RequireProgressBy: '0001-01-01T00:00:00Z' }) } }))).toBe(
      'Task Group  Desired  Placed  Healthy  Unhealthy\nweb         2        2       0        0\n',
    );
    const mixed = deploymentGroupsTable(deployment({ TaskGroups: { a: group(), b: group({ RequireProgressBy: '0001-01-01T00:00:00Z' }) } }));
    expect(mixed.trimEnd().split('\n')[2]).toMatch(/^b +2 +2 +0 +0 +N\/A$/);
  });

  it('adds Promoted and Canaries when a group has canaries', () => {
    const d = deployment({ TaskGroups: { a: group({ DesiredCanaries: 1, Promoted: true, ProgressDeadline: 0 }), b: group({ ProgressDeadline: 0 }) } });
    expect(deploymentGroupsTable(d)).toBe('Task Group  Promoted  Desired  Canaries  Placed  Healthy  Unhealthy\na           true      2        1         2       0        0\nb           N/A       2        0         2       0        0\n');
  });

  it('is empty for a deployment without groups, which then has no Deployed section', () => {
    const d = deployment({ TaskGroups: {} });
    expect(deploymentGroupsTable(d)).toBe('');
    expect(formatDeployment(d, 8)).not.toContain('Deployed');
  });
});

describe('deployment screens', () => {
  it('formatDeployment: ID, Job ID, Job Version, Status, Description, then Deployed', () => {
    expect(formatDeployment(deployment(), 8)).toBe(
      [
        'ID          = 3eefc5eb',
        'Job ID      = web',
        'Job Version = 3',
        'Status      = running',
        'Description = Deployment is running',
        '',
        'Deployed',
        'Task Group  Desired  Placed  Healthy  Unhealthy  Progress Deadline',
        `web         2        2       0        0          ${local(DEADLINE)}`,
        '',
      ].join('\n'),
    );
    expect(formatDeployment(deployment(), 36)).toContain(`ID          = ${ID}\n`);
  });

  it("job status's Latest Deployment: ID, Status, Description, then Deployed", () => {
    const text = latestDeploymentSection(deployment({ Status: 'successful', StatusDescription: 'Deployment completed successfully' }), 8);
    expect(text).toMatch(/^\nLatest Deployment\nID {10}= 3eefc5eb\nStatus {6}= successful\nDescription = Deployment completed successfully\n\nDeployed\nTask Group +Desired/);
  });

  it('the list: ID, Job ID, Job Version, Status, Description; No deployments found', () => {
    const rows = [deployment(), deployment({ ID: ROLLBACK, JobVersion: 4, Status: 'failed', StatusDescription: 'Deployment marked as failed' })];
    expect(deploymentListTable(rows, 8)).toBe(
      'ID        Job ID  Job Version  Status   Description\n3eefc5eb  web     3            running  Deployment is running\n7a11bac0  web     4            failed   Deployment marked as failed\n',
    );
    expect(deploymentListTable([], 8)).toBe('No deployments found\n');
  });

  it('reads the rollback version from the description', () => {
    expect(rollbackVersion('Failed due to unhealthy allocations - rolling back to job version 12')).toBe(12);
    expect(rollbackVersion('Failed due to unhealthy allocations')).toBeUndefined();
    expect(rollbackVersion('Deployment marked as failed')).toBeUndefined();
  });

  it("the monitor's block is the time and the deployment, indented by four; the status line by two", async () => {
    const time = new Date(Date.UTC(2026, 7, 21, 10, 0, 3));
    const block = monitorBlock(deployment(), { length: 8, time });
    const lines = block.split('\n');
    expect(lines[0]).toBe(`    ${formatTime(time)}`);
    expect(lines[1]).toBe('    ID          = 3eefc5eb');
    expect(lines[6]).toBe('');
    expect(lines[7]).toBe('    Deployed');
    expect(block.endsWith('\n')).toBe(true);
    expect(monitorBlock(deployment(), { length: 8, time, allocations: 'No allocations placed\n' })).toMatch(/\n\n {4}Allocations\n {4}No allocations placed\n$/);
    expect(monitorStatusLine(ID, 'running', 8)).toBe('  Deployment "3eefc5eb" in progress...');
    expect(monitorStatusLine(ID, 'paused', 8)).toBe('  Deployment "3eefc5eb" in progress...');
    expect(monitorStatusLine(ID, 'successful', 8)).toBe('  ✓ Deployment "3eefc5eb" successful');
    expect(monitorStatusLine(ID, 'failed', 8)).toBe('  ! Deployment "3eefc5eb" failed');
    expect(monitorStatusLine(ID, 'cancelled', 8)).toBe('  ! Deployment "3eefc5eb" cancelled');
    const palette = await loadPalette(true);
    expect(monitorStatusLine(ID, 'successful', 8, palette)).toBe('  \x1b[32m✓\x1b[39m Deployment "3eefc5eb" successful');
    expect(monitorStatusLine(ID, 'failed', 8, palette)).toBe('  \x1b[31m!\x1b[39m Deployment "3eefc5eb" failed');
    expect(monitorStatusLine(ID, 'cancelled', 8, palette)).toBe('  \x1b[33m!\x1b[39m Deployment "3eefc5eb" cancelled');
  });
});

/** A fake client answering each read of a deployment with its next scripted state (the last one repeats). */
function scripted(states: Record<string, Deployment[]>, jobDeployments: Deployment[][] = []) {
  const reads: Record<string, number> = {};
  const calls: Array<{ path: string; query: Record<string, unknown> }> = [];
  let listed = 0;
  const client = {
    async scheduler<T>(_method: string, path: string, opts: { query?: Record<string, unknown> } = {}): Promise<{ body: T; index: number }> {
      calls.push({ path, query: opts.query ?? {} });
      const job = /^\/v1\/job\/([^/]+)\/deployments$/.exec(path);
      if (job) {
        const answer = jobDeployments[Math.min(listed++, jobDeployments.length - 1)] ?? [];
        return { body: answer as T, index: 100 + listed };
      }
      if (path.startsWith('/v1/deployment/allocations/')) return { body: [] as T, index: 1 };
      const m = /^\/v1\/deployment\/([^/]+)$/.exec(path);
      if (!m || !states[m[1]]) throw new ApiError(404, ['deployment not found'], path);
      const n = (reads[m[1]] = (reads[m[1]] ?? -1) + 1);
      const d = states[m[1]][Math.min(n, states[m[1]].length - 1)];
      return { body: d as T, index: d.ModifyIndex };
    },
  };
  return { client, calls };
}

/** A terminal's stream that records what is written, cursor movements as `<up N>`, `<col N>` and `<clear down>`. */
function terminal(columns?: number) {
  const raw: string[] = [];
  const stream = {
    columns,
    write: (t: string) => void raw.push(t),
    moveCursor: (dx: number, dy: number) => void raw.push(dy < 0 ? `<up ${-dy}>` : `<move ${dx},${dy}>`),
    cursorTo: (x: number) => void raw.push(`<col ${x}>`),
    clearScreenDown: () => void raw.push('<clear down>'),
  };
  return { stream, raw };
}

function capture(opts: { tty?: boolean; columns?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const { stream, raw } = terminal(opts.columns);
  const stdout = { ...stream, isTTY: opts.tty };
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), stdout }, out, err, raw };
}

const fixed = () => new Date(Date.UTC(2026, 7, 21, 10, 0, 0));
const base = { length: 8, now: fixed, sleep: async () => {}, rollbackWaitMs: 0 };
const T = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)/g;

describe('monitorDeployment', () => {
  it('prints the block each time the deployment changes, ends with ✓ and exits 0', async () => {
    const { client, calls } = scripted({
      [ID]: [
        deployment({ ModifyIndex: 11 }),
        deployment({ ModifyIndex: 12, TaskGroups: { web: group({ HealthyAllocs: 1 }) } }),
        deployment({ ModifyIndex: 12, TaskGroups: { web: group({ HealthyAllocs: 1 }) } }),
        deployment({ ModifyIndex: 13, Status: 'successful', StatusDescription: 'Deployment completed successfully', TaskGroups: { web: group({ HealthyAllocs: 2 }) } }),
      ],
    });
    const { io, out } = capture();
    const code = await monitorDeployment({ ...base, client: client as never, io }, ID);
    expect(code).toBe(0);
    const text = out.join('\n').replace(T, 'T');
    expect(out[0].replace(T, 'T')).toBe('==> T: Monitoring deployment "3eefc5eb"');
    // Three distinct states, three blocks; the repeated answer prints nothing.
    expect(text.match(/\n {4}T\n {4}ID {10}= 3eefc5eb\n/g)).toHaveLength(3);
    expect(text).toMatch(/Status {6}= running\n[^]*Status {6}= running\n[^]*Status {6}= successful\n/);
    expect(text).toMatch(/\n {4}web +2 +2 +2 +0 +T\n\n\n {2}✓ Deployment "3eefc5eb" successful$/);
    // Blocking queries: each read waits on the index of the last answer.
    const reads = calls.filter((c) => c.path === `/v1/deployment/${ID}`);
    expect(reads.map((c) => c.query.index)).toEqual([undefined, 11, 12, 12]);
    expect(reads[1].query.wait).toBe('30s');
  });

  it('a failed deployment ends with ! and exits 1; so does a cancelled one', async () => {
    const failed = scripted({ [ID]: [deployment({ Status: 'failed', StatusDescription: 'Failed due to progress deadline' })] });
    const a = capture();
    expect(await monitorDeployment({ ...base, client: failed.client as never, io: a.io }, ID)).toBe(1);
    expect(a.out.at(-1)).toBe('\n  ! Deployment "3eefc5eb" failed');
    expect(a.out.join('\n')).toContain('Description = Failed due to progress deadline\n');
    // Not rolling back: the job's deployments are not looked for.
    expect(failed.calls.some((c) => c.path.includes('/v1/job/'))).toBe(false);

    const cancelled = scripted({ [ID]: [deployment({ Status: 'cancelled', StatusDescription: 'Cancelled because job is stopped' })] });
    const b = capture();
    expect(await monitorDeployment({ ...base, client: cancelled.client as never, io: b.io }, ID)).toBe(1);
    expect(b.out.at(-1)).toBe('\n  ! Deployment "3eefc5eb" cancelled');
  });

  it('follows the rollback of a deployment that is rolling back, and still exits 1', async () => {
    const failed = deployment({ Status: 'failed', StatusDescription: 'Failed due to unhealthy allocations - rolling back to job version 2', CreateIndex: 11, ModifyIndex: 14 });
    const rollback = deployment({ ID: ROLLBACK, JobVersion: 4, CreateIndex: 15, ModifyIndex: 15 });
    const { client } = scripted(
      {
        [ID]: [failed],
        [ROLLBACK]: [rollback, { ...rollback, ModifyIndex: 16, Status: 'successful', StatusDescription: 'Deployment completed successfully' }],
      },
      // The rollback is not there on the first look.
      [[failed], [rollback, failed]],
    );
    const { io, out } = capture();
    const code = await monitorDeployment({ ...base, rollbackWaitMs: 10_000, client: client as never, io }, ID);
    expect(code).toBe(1);
    const text = out.join('\n').replace(T, 'T');
    expect(text).toContain('\n  ! Deployment "3eefc5eb" failed\n');
    expect(text).toContain('\n==> T: Monitoring rollback deployment "7a11bac0"\n');
    expect(text).toMatch(/Job Version = 4\n/);
    expect(text.endsWith('\n  ✓ Deployment "7a11bac0" successful')).toBe(true);
  });

  it('gives up on a rollback that does not appear', async () => {
    const failed = deployment({ Status: 'failed', StatusDescription: 'Failed due to unhealthy allocations - rolling back to job version 2' });
    const { client } = scripted({ [ID]: [failed] }, [[failed]]);
    const { io, out } = capture();
    expect(await monitorDeployment({ ...base, client: client as never, io }, ID)).toBe(1);
    expect(out.join('\n')).not.toContain('Monitoring rollback');
  });

  it('with -verbose, shows the allocations of the deployment under it', async () => {
    const { client, calls } = scripted({ [ID]: [deployment({ Status: 'successful', StatusDescription: 'Deployment completed successfully' })] });
    const { io, out } = capture();
    expect(await monitorDeployment({ ...base, length: 36, verbose: true, client: client as never, io }, ID)).toBe(0);
    expect(out.join('\n')).toContain(`    ID          = ${ID}\n`);
    expect(out.join('\n')).toMatch(/\n\n {4}Allocations\n {4}No allocations placed\n\n\n {2}✓ Deployment "3eefc5eb-0000-4000-8000-000000000001" successful$/);
    expect(calls.map((c) => c.path)).toContain(`/v1/deployment/allocations/${ID}`);
  });

  it('reports a deployment it cannot read, and exits 1', async () => {
    const { client } = scripted({});
    const { io, err } = capture();
    expect(await monitorDeployment({ ...base, client: client as never, io }, ID)).toBe(1);
    expect(err.join('\n')).toMatch(/: Error fetching deployment: Unexpected response code: 404 \(deployment not found\)$/);
  });

  it('on a terminal, redraws the block in place and leaves the final state with ✓ below it', async () => {
    const { client } = scripted({
      [ID]: [deployment({ ModifyIndex: 11 }), deployment({ ModifyIndex: 12, Status: 'successful', StatusDescription: 'Deployment completed successfully', TaskGroups: { web: group({ HealthyAllocs: 2 }) } })],
    });
    const { io, out, raw } = capture({ tty: true, columns: 200 });
    expect(await monitorDeployment({ ...base, client: client as never, io }, ID)).toBe(0);
    // The ==> line and the final state go through io.out, below the block.
    expect(out).toHaveLength(2);
    expect(out[1]).toBe('\n  ✓ Deployment "3eefc5eb" successful');
    const [first, up, col, clear, second] = raw;
    expect(first.startsWith('\n    ')).toBe(true);
    expect(first).toContain('Status      = running');
    expect(first.endsWith('\n')).toBe(true);
    // The redraw goes back to the region's first row (the cursor was below its last), clears below and writes the final state.
    expect([up, col, clear]).toEqual([`<up ${first.split('\n').length - 1}>`, '<col 0>', '<clear down>']);
    expect(second).toContain('Status      = successful');
    expect(raw).toHaveLength(5);
  });

  it('without a terminal stream to move on, prints each state below the last', async () => {
    const { client } = scripted({ [ID]: [deployment({ Status: 'successful', StatusDescription: 'Deployment completed successfully' })] });
    const out: string[] = [];
    const written: string[] = [];
    const io = { out: (t: string) => void out.push(t), err: () => {}, stdout: { isTTY: true, write: (t: string) => void written.push(t) } };
    expect(await monitorDeployment({ ...base, client: client as never, io }, ID)).toBe(0);
    expect(written).toEqual([]);
    expect(out.join('\n')).toContain('Status      = successful');
  });
});

describe('terminal redrawing', () => {
  it('counts wrapped rows', () => {
    expect(terminalRows('abc\n\nabcdef', 4)).toBe(4);
    expect(terminalRows('abcd', 4)).toBe(1);
    expect(terminalRows('\x1b[32mab\x1b[0m', 2)).toBe(1);
    expect(terminalRows('a\nb', undefined)).toBe(2);
  });

  it('LiveRegion moves up over the rows it drew last, wrapped ones included, and clears below', () => {
    const { stream, raw } = terminal(4);
    const region = new LiveRegion(stream);
    region.draw('one\ntwo\nthree\n');
    region.draw('single\n');
    region.draw('again\n');
    expect(raw).toEqual(['one\ntwo\nthree\n', '<up 4>', '<col 0>', '<clear down>', 'single\n', '<up 2>', '<col 0>', '<clear down>', 'again\n']);
  });
});

describe('followEvaluation', () => {
  it("answers the deployment the evaluation placed into, with the monitor's exit code", async () => {
    const EVAL = 'b9c0dff9-0000-4000-8000-000000000001';
    const e: Evaluation = { ID: EVAL, Namespace: 'default', Priority: 50, Type: 'service', TriggeredBy: 'job-register', JobID: 'web', Status: 'complete', DeploymentID: ID, CreateIndex: 10, ModifyIndex: 10 };
    const client = {
      async scheduler<T>(_m: string, path: string) {
        return { body: (path.endsWith('/allocations') ? [] : e) as T, index: 1 };
      },
    };
    const out: string[] = [];
    const outcome = await followEvaluation({ client: client as never, io: { out: (t) => void out.push(t), err: () => {} }, length: 8, now: fixed, sleep: async () => {} }, EVAL);
    expect(outcome).toEqual({ code: 0, deploymentId: ID });
    expect(out.join('\n')).toContain('Evaluation within deployment: "3eefc5eb"');
  });
});
