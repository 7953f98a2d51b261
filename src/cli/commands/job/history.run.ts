/**
 * `svc job history`: a job's versions, with what changed between them. The command's declaration is in
 * src/cli/commands/job/history.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { printSchedulerData, wantsTable } from '../../output/scheduler-output.js';
import { UsageError } from '../../../shared/errors.js';
import { formatJobDiff, type JobDiff } from '../../../scheduler/structs/diff.js';
import { jobPath } from '../../../api/jobs.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { formatNomadTime } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { parseVersionFlag } from './versions.js';
import { colours, type Palette } from '../../output/colour.js';

interface JobVersion {
  Version: number;
  Stable: boolean;
  SubmitTime: number;
  VersionTag?: { Name: string; Description: string } | null;
  [key: string]: unknown;
}

/**
 * One version's block as Nomad lays it out: keys padded to one width and ` = `; unlike formatKV, empty
 * values stay empty, and `Diff` and `Full` carry a multi-line value starting on the line after their key.
 * A diff is shown only when something changed.
 */
function versionBlock(v: JobVersion, full: boolean, diff: JobDiff | undefined, palette: Palette): string {
  const rows: Array<[string, string]> = [
    ['Version', String(v.Version)],
    ['Stable', String(v.Stable)],
    ['Submit Date', formatNomadTime(v.SubmitTime)],
  ];
  if (v.VersionTag) rows.push(['Tag Name', v.VersionTag.Name], ['Tag Description', v.VersionTag.Description]);
  if (diff && diff.Type !== 'None') rows.push(['Diff', `\n${formatJobDiff(diff, { palette })}`]);
  if (full) rows.push(['Full', `JSON Job:\n${JSON.stringify(v, null, 4)}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, val]) => `${k.padEnd(width)} = ${val}`).join('\n');
}

export function jobHistory(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const diff = ctx.flags.p === true;
    const diffTag = ctx.flags['diff-tag'] === undefined ? '' : String(ctx.flags['diff-tag']);
    const diffVersionText = ctx.flags['diff-version'] === undefined ? '' : String(ctx.flags['diff-version']).trim();
    // Nomad's rules for the diff flags, with its messages.
    if (diff && !wantsTable(ctx)) throw new UsageError('-json and -t are exclusive with -p and -full');
    if ((diffTag !== '' || diffVersionText !== '') && !diff) throw new UsageError('-diff-tag and -diff-version can only be used with -p');
    if (diffTag !== '' && diffVersionText !== '') throw new UsageError('-diff-tag and -diff-version are mutually exclusive');
    if (diffVersionText !== '' && !/^\d+$/.test(diffVersionText)) throw new UsageError(`Error parsing -diff-version: invalid value "${diffVersionText}": expected a non-negative integer`);
    const version = parseVersionFlag(ctx.flags.version);
    const client = clientFor(ctx);
    const stub = await resolveJob(ctx, client, ctx.args[0]);
    const query: Record<string, string | boolean> = { namespace: stub.Namespace };
    if (diff) query.diffs = true;
    if (diffVersionText !== '') query.diff_version = diffVersionText;
    if (diffTag !== '') query.diff_tag = diffTag;
    const { body } = await client.scheduler<{ Versions: JobVersion[]; Diffs: JobDiff[] | null }>('GET', jobPath(stub.ID, '/versions'), { query });
    let versions = body?.Versions ?? [];
    // Diffs[i] belongs to Versions[i]; without a reference version the oldest has none.
    const diffs = new Map(versions.map((v, i) => [v, body?.Diffs?.[i]]));
    if (version !== undefined) {
      versions = versions.filter((v) => v.Version === version);
      if (versions.length === 0) throw new CommandFailure(`Could not find job version ${version}`);
    }
    return printSchedulerData(ctx, version !== undefined ? versions[0] : versions, () =>
      versions.map((v) => versionBlock(v, ctx.flags.full === true, diffs.get(v), colours())).join('\n\n'),
    );
  });
}
