import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
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
import { resolveEval } from './resolve.js';

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

export default defineCommand({
  path: ['eval', 'status'],
  synopsis: 'Display evaluation status and placement failure reasons',
  usage: 'svc eval status [options] EVAL',
  description:
    'Shows an evaluation (an ID or a unique ID prefix of at least two characters): its status, what ' +
    'triggered it, and, when it could not place every allocation, the reasons per task group: nodes excluded ' +
    'by constraints, resources exhausted. -monitor follows an evaluation that is still running.',
  examples: [
    { command: 'svc eval status 5e8f3a2c' },
    { command: 'svc eval status -json 5e8f', description: 'The evaluation as JSON' },
    { command: 'svc eval status -monitor 5e8f', description: 'Follow it to the end' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown evaluation, or a prefix matching several', 2: 'with -monitor: allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'verbose', type: 'bool', description: 'Full IDs, absolute times, and the previous, next and blocked evaluations.' },
    { name: 'monitor', type: 'bool', description: 'Follow the evaluation until it finishes, as `svc job run` does.' },
  ],
  args: [{ name: 'eval', description: 'An evaluation ID or a unique prefix of one.', required: true }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const client = clientFor(ctx);
      const verbose = ctx.flags.verbose === true;
      const found = await resolveEval(client, ctx.args[0], verbose);
      if (ctx.flags.monitor === true) {
        const { monitorEvaluation } = await import('../../monitor.js');
        return monitorEvaluation({ client, io: ctx.io, length: idLength(verbose), namespace: found.Namespace }, found.ID);
      }
      const { getEval } = await import('../../../api/evals.js');
      const e = await getEval(client, found.ID, found.Namespace);
      if (ctx.flags.json === true) {
        ctx.io.out(JSON.stringify(e, null, 4));
        return 0;
      }
      ctx.io.out(formatEvalStatus(e, verbose, Date.now()).replace(/\n+$/, '\n'));
      return 0;
    });
  },
});
