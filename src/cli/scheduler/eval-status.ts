/**
 * `svc eval status`: one evaluation and why its placements failed. The command's declaration is in
 * src/cli/commands/eval/status.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { UsageError } from '../../shared/errors.js';
import { printSchedulerData, wantsTable } from '../output/scheduler-output.js';
import { reportingFailures } from '../command-failure.js';
import {
  evalFailureStatus,
  failedPlacementHeading,
  formatAllocMetrics,
  formatKV,
  formatNomadTime,
  formatTime,
  idLength,
  limit,
  parseWireTime,
  prettyTimeDiff,
  quote,
  sortedKeys,
} from '../output/nomad.js';
import { getEval, type Evaluation } from '../../api/evals.js';
import { resolveEval } from './eval-resolve.js';
import { monitorEvaluation } from '../monitor.js';

/** Nomad's getTriggerDetails: the extra row some triggers add. */
function triggerDetails(e: Evaluation): [string, string] | undefined {
  if (e.TriggeredBy === 'node-update' && e.NodeID) return ['Node ID', e.NodeID];
  if (e.TriggeredBy === 'max-plan-attempts' && e.PreviousEval) return ['Previous Eval', e.PreviousEval];
  return undefined;
}

/** The `eval status` screen: a key/value block, then `Failed Placements` with the reasons per group. */
export function formatEvalStatus(e: Evaluation, verbose: boolean, nowMs: number): string {
  const length = idLength(verbose);
  const time = (ns: number | undefined) => (verbose ? formatNomadTime(ns ?? 0) : prettyTimeDiff(Math.floor((ns ?? 0) / 1e6), nowMs));
  const { text: failureText, failures } = evalFailureStatus(e);
  const rows: Array<[string, string]> = [
    ['ID', limit(e.ID, length)],
    ['Create Time', time(e.CreateTime)],
    ['Modify Time', time(e.ModifyTime)],
    ['Status', e.Status],
    ['Status Description', e.StatusDescription || e.Status],
    ['Type', e.Type],
    ['TriggeredBy', e.TriggeredBy],
    ['Job ID', e.JobID],
    ['Namespace', e.Namespace],
  ];
  const trigger = triggerDetails(e);
  if (trigger) rows.push(trigger);
  rows.push(['Priority', String(e.Priority)], ['Placement Failures', failureText]);
  const waitUntil = parseWireTime(e.WaitUntil);
  if (waitUntil !== undefined) rows.push(['Wait Until', formatTime(new Date(waitUntil))]);
  if (e.QuotaLimitReached) rows.push(['Quota Limit Reached', e.QuotaLimitReached]);
  if (verbose) rows.push(['Previous Eval', e.PreviousEval ?? ''], ['Next Eval', e.NextEval ?? ''], ['Blocked Eval', e.BlockedEval ?? '']);
  let out = formatKV(rows);
  if (failures) {
    const failed = e.FailedTGAllocs!;
    out += '\nFailed Placements\n';
    for (const g of sortedKeys(failed)) out += `${failedPlacementHeading(g, failed[g])}\n${formatAllocMetrics(failed[g], false, '  ')}\n\n`;
    if (e.BlockedEval) out += `Evaluation ${quote(limit(e.BlockedEval, length))} waiting for additional capacity to place remainder\n`;
  }
  return out;
}

export function evalStatus(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    if (ctx.flags.monitor === true && !wantsTable(ctx)) throw new UsageError('-monitor prints progress, not data: it cannot be combined with -json, -format, -field or -t');
    const client = clientFor(ctx);
    const verbose = ctx.flags.verbose === true;
    const found = await resolveEval(client, ctx.args[0], verbose);
    if (ctx.flags.monitor === true) {
      return monitorEvaluation({ client, io: ctx.io, length: idLength(verbose), namespace: found.Namespace }, found.ID);
    }
    const e = await getEval(client, found.ID, found.Namespace);
    return printSchedulerData(ctx, e, () => formatEvalStatus(e, verbose, Date.now()).replace(/\n+$/, '\n'));
  });
}
