/**
 * `svc eval list`: the evaluations, a page at a time. The command's declaration is in
 * src/cli/commands/eval/list.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { evalListTable, newestFirst } from '../../output/nomad.js';
import { listEvals } from '../../../api/evals.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

/** The command line that fetches the next page (Nomad prints the user's own, without -page-token). */
function nextPageCommand(flags: Record<string, unknown>, token: string): string {
  const parts = ['svc eval list'];
  const q = (v: string) => (/^[A-Za-z0-9_.:\/=-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  for (const name of ['job', 'status', 'filter', 'per-page', 'namespace']) {
    const v = flags[name];
    if (v !== undefined && v !== '' && v !== 0) parts.push(`-${name} ${q(String(v))}`);
  }
  if (flags.verbose === true) parts.push('-verbose');
  parts.push(`-page-token ${q(token)}`);
  return parts.join(' ');
}

export function evalList(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const perPage = ctx.flags['per-page'] as number | undefined;
    if (perPage !== undefined && perPage < 0) throw new UsageError('-per-page must be 0 or more');
    const { evals, nextToken } = await listEvals(clientFor(ctx), {
      job: ctx.flags.job as string | undefined,
      status: ctx.flags.status as string | undefined,
      filter: ctx.flags.filter as string | undefined,
      perPage,
      nextToken: ctx.flags['page-token'] as string | undefined,
    });
    const sorted = newestFirst(evals);
    return printSchedulerData(ctx, sorted, () => {
      if (sorted.length === 0) return 'No evals found';
      let out = evalListTable(sorted, ctx.flags.verbose === true);
      if (nextToken) out += `\nResults have been paginated. To get the next page run:\n\n${nextPageCommand(ctx.flags, nextToken)}\n`;
      return out;
    });
  });
}
