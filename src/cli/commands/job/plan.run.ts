/**
 * `svc job plan`: the scheduler's dry run of a job file, printed as Nomad's command/job_plan.go
 * prints it: the annotated diff, the dry-run outcome, and the index to submit with `job run -check-index`.
 * Exit 0 when no allocation would change, 1 when some would, 255 on any error. The command's declaration
 * is in src/cli/commands/job/plan.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure } from '../../command-failure.js';
import { failedPlacementHeading, formatAllocMetrics, formatTime, sortedKeys } from '../../output/nomad.js';
import { formatGoDuration } from '../../../shared/duration.js';
import { loadJobFileOfCommand } from '../../job-file.js';
import { planJob, type PlanResponse } from '../../../api/job-plan.js';
import { formatJobDiff, goQuote } from '../../../scheduler/structs/diff.js';
import { colours, errColours, type Palette } from '../../output/colour.js';

/** Nomad's exit code for a plan that could not be made. */
const PLAN_ERROR = 255;

export async function jobPlan(ctx: CommandContext): Promise<number> {
  try {
    return await plan(ctx);
  } catch (err) {
    const { red } = errColours();
    if (err instanceof CommandFailure) ctx.io.err(red(err.message));
    else if (err instanceof ApiError) ctx.io.err(red(`Error during plan: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`));
    else ctx.io.err(red(`Error during plan: ${err instanceof Error ? err.message : String(err)}`));
    return PLAN_ERROR;
  }
}

async function plan(ctx: CommandContext): Promise<number> {
  const loaded = await loadJobFileOfCommand(ctx);
  const job = loaded.job as Record<string, unknown>;
  // A namespace in the job file wins over -namespace, as for `job run`.
  const namespace = typeof job.Namespace === 'string' && job.Namespace !== '' ? job.Namespace : undefined;
  // The diff is always asked for: the exit code depends on it, -diff=false only hides it.
  const resp = await planJob(clientFor(ctx), job, { diff: true, policyOverride: ctx.flags['policy-override'] === true, namespace });
  const p = colours();

  if (ctx.flags.diff !== false && resp.Diff) ctx.io.out(`${formatJobDiff(resp.Diff, { verbose: ctx.flags.verbose === true, palette: p })}\n\n`);
  ctx.io.out(p.bold('Scheduler dry-run:'));
  ctx.io.out(dryRunText(resp, job, p));
  ctx.io.out('');
  if (resp.Warnings) ctx.io.out(`${p.bold(p.yellow(`Job Warnings:\n${resp.Warnings}`))}\n\n`);
  ctx.io.out(checkIndexHint(resp.JobModifyIndex, runArgs(ctx), ctx.args[0], p));
  return exitCode(resp);
}

/** What the scheduler would do: everything placed, or what failed and why; a rolling update; the next periodic launch. */
function dryRunText(resp: PlanResponse, job: Record<string, unknown>, p: Palette): string {
  const rolling = (resp.CreatedEvals ?? []).filter((e) => e.TriggeredBy === 'rolling-update').pop();
  let out: string;
  const failed = resp.FailedTGAllocs ?? {};
  if (Object.keys(failed).length === 0) {
    out = `${p.bold(p.green('- All tasks successfully allocated.'))}\n`;
  } else {
    const what = job.Type === 'system' ? 'Failed to place allocations on all nodes.' : 'Failed to place all allocations.';
    out = `${p.bold(p.yellow(`- WARNING: ${what}`))}\n`;
    for (const group of sortedKeys(failed)) {
      out += `  ${p.yellow(failedPlacementHeading(group, failed[group]))}\n`;
      out += `${p.yellow(formatAllocMetrics(failed[group], false, '    '))}\n\n`;
    }
    if (!rolling) out = out.replace(/\n$/, '');
  }
  if (rolling) out += `${p.green(`- Rolling update, next evaluation will be in ${formatGoDuration(rolling.Wait ?? 0)}.`)}\n`;
  const next = Date.parse(resp.NextPeriodicLaunch);
  if (Number.isFinite(next) && new Date(next).getUTCFullYear() > 1 && job.ParameterizedJob == null) {
    out += `${p.green(`- If submitted now, next periodic launch would be at ${formatTime(new Date(next))} (${formatGoDuration(Math.round((next - Date.now()) / 1000) * 1e9)} from now).`)}\n`;
  }
  return out.replace(/\n$/, '');
}

/** The -var and -var-file flags as the hint repeats them, quoted as Go's %q does. */
function runArgs(ctx: CommandContext): string {
  const vars = (ctx.flags.var as string[] | undefined) ?? [];
  const files = (ctx.flags['var-file'] as string[] | undefined) ?? [];
  return [...vars.map((v) => `-var=${goQuote(v)} `), ...files.map((f) => `-var-file=${goQuote(f)} `)].join('');
}

function checkIndexHint(index: number, args: string, file: string, p: Palette): string {
  return (
    `${p.bold(`Job Modify Index: ${index}`)}\n` +
    'To submit the job with version verification run:\n\n' +
    `svc job run -check-index ${index} ${args}${file}\n\n` +
    'When running the job with the check-index flag, the job will only be run if the\n' +
    'job modify index given matches the server-side version. If the index has\n' +
    "changed, another user has modified the job and the plan's results are\n" +
    'potentially invalid.'
  );
}

/** 1 when an allocation would be created, stopped, migrated, replaced or canaried; else 0. */
function exitCode(resp: PlanResponse): number {
  if (resp.Diff?.Type === 'None') return 0;
  for (const d of Object.values(resp.Annotations?.DesiredTGUpdates ?? {})) {
    if (d.Stop + d.Place + d.Migrate + d.DestructiveUpdate + d.Canary > 0) return 1;
  }
  return 0;
}
