/** The screen of `svc eval status`. */
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
} from '../../output/nomad.js';
import type { Evaluation } from '../../../api/evals.js';

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
