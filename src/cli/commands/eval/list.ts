import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { evalListTable, newestFirst } from '../../output/nomad.js';

const STATUSES = ['blocked', 'pending', 'complete', 'failed', 'canceled'];

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

export default defineCommand({
  path: ['eval', 'list'],
  synopsis: 'List evaluations',
  usage: 'svc eval list [options]',
  description:
    'Lists the evaluations of the namespace, newest first within a page: -job and -status narrow the list, ' +
    '-filter takes an expression evaluated against each evaluation (e.g. \'Status == "blocked"\'), and ' +
    '-per-page with -page-token pages through it.',
  examples: [
    { command: 'svc eval list' },
    { command: 'svc eval list -job example -status complete' },
    { command: 'svc eval list -filter \'TriggeredBy == "job-register"\' -per-page 20' },
  ],
  exitCodes: { 0: 'success (also when no evaluation matches)', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'job', type: 'string', description: 'Only evaluations of this job ID.', complete: 'job' },
    { name: 'status', type: 'string', description: 'Only evaluations with this status.', choices: STATUSES },
    { name: 'filter', type: 'string', description: 'A filter expression evaluated against each evaluation.' },
    { name: 'per-page', type: 'int', description: 'How many evaluations to show per page.' },
    { name: 'page-token', type: 'string', description: 'Where the page starts: the token the previous page printed.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const perPage = ctx.flags['per-page'] as number | undefined;
      if (perPage !== undefined && perPage < 0) throw new UsageError('-per-page must be 0 or more');
      const { listEvals } = await import('../../../api/evals.js');
      const { evals, nextToken } = await listEvals(clientFor(ctx), {
        job: ctx.flags.job as string | undefined,
        status: ctx.flags.status as string | undefined,
        filter: ctx.flags.filter as string | undefined,
        perPage,
        nextToken: ctx.flags['page-token'] as string | undefined,
      });
      const sorted = newestFirst(evals);
      if (ctx.flags.json === true) {
        ctx.io.out(JSON.stringify(sorted, null, 4));
        return 0;
      }
      if (sorted.length === 0) {
        ctx.io.out('No evals found');
        return 0;
      }
      let out = evalListTable(sorted, ctx.flags.verbose === true);
      if (nextToken) out += `\nResults have been paginated. To get the next page run:\n\n${nextPageCommand(ctx.flags, nextToken)}\n`;
      ctx.io.out(out);
      return 0;
    });
  },
});
