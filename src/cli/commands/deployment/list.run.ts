/**
 * `svc deployment list`: the deployments, a page at a time. The command's declaration is in
 * src/cli/commands/deployment/list.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength, newestFirst } from '../../output/nomad.js';
import { deploymentListTable } from '../../output/deployment.js';
import { listDeployments } from '../../../api/deployments.js';
import { orFail } from '../../failures/api.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

/** The command line that fetches the next page: the user's flags, with the next page's token. */
function nextPageCommand(flags: Record<string, unknown>, token: string): string {
  const parts = ['svc deployment list'];
  const q = (v: string) => (/^[A-Za-z0-9_.:\/=*-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  for (const name of ['filter', 'per-page', 'namespace']) {
    const v = flags[name];
    if (v !== undefined && v !== '' && v !== 0) parts.push(`-${name} ${q(String(v))}`);
  }
  if (flags.verbose === true) parts.push('-verbose');
  parts.push(`-page-token ${q(token)}`);
  return parts.join(' ');
}

export function deploymentList(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const perPage = ctx.flags['per-page'] as number | undefined;
    if (perPage !== undefined && perPage < 0) throw new UsageError('-per-page must be 0 or more');
    const { deployments, nextToken } = await orFail('Error retrieving deployments', () =>
      listDeployments(clientFor(ctx), {
        filter: ctx.flags.filter as string | undefined,
        perPage,
        nextToken: ctx.flags['page-token'] as string | undefined,
      }),
    );
    const sorted = newestFirst(deployments);
    return printSchedulerData(ctx, sorted, () => {
      const out = deploymentListTable(sorted, idLength(ctx.flags.verbose));
      return nextToken ? `${out}\nResults have been paginated. To get the next page run:\n\n${nextPageCommand(ctx.flags, nextToken)}\n` : out;
    });
  });
}
