/**
 * `svc eval status`: one evaluation and why its placements failed. The command's declaration is in
 * src/cli/commands/eval/status.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { printSchedulerData, wantsTable } from '../../output/scheduler-output.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { getEval } from '../../../api/evals.js';
import { resolveEval } from '../../resolve/eval.js';
import { monitorEvaluation } from '../../monitor.js';
import { formatEvalStatus } from './status-screen.js';

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
