import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { formatJobDiff, type JobDiff } from '../../../scheduler/structs/diff.js';
import { JobCommandFailure, formatNomadTime, jobPath, reportingFailures, resolveJob } from './status.js';
import { parseVersionFlag } from './inspect.js';

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
function versionBlock(v: JobVersion, full: boolean, diff: JobDiff | undefined, color: boolean): string {
  const rows: Array<[string, string]> = [
    ['Version', String(v.Version)],
    ['Stable', String(v.Stable)],
    ['Submit Date', formatNomadTime(v.SubmitTime)],
  ];
  if (v.VersionTag) rows.push(['Tag Name', v.VersionTag.Name], ['Tag Description', v.VersionTag.Description]);
  if (diff && diff.Type !== 'None') rows.push(['Diff', `\n${formatJobDiff(diff, { color })}`]);
  if (full) rows.push(['Full', `JSON Job:\n${JSON.stringify(v, null, 4)}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, val]) => `${k.padEnd(width)} = ${val}`).join('\n');
}

export default defineCommand({
  path: ['job', 'history'],
  synopsis: 'Display all tracked versions of a job',
  usage: 'svc job history [options] JOB',
  description:
    'Lists the versions of a job the server keeps, newest first: each version\'s number, whether it is ' +
    'stable and when it was submitted. -p adds what changed from the version before (or, with -diff-version ' +
    'or -diff-tag, from that version), marked + added, - removed, +/- edited, as job plan shows it. -full adds ' +
    'each version\'s whole job.',
  examples: [
    { command: 'svc job history example' },
    { command: 'svc job history -p example', description: 'What changed in each version' },
    { command: 'svc job history -p -diff-version 0 example', description: 'Each version compared with version 0' },
    { command: 'svc job history -version 2 -full example', description: 'One version, with its job' },
    { command: 'svc job history -json example', description: 'The versions as a JSON array' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job or version, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'p', type: 'bool', description: 'Show the differences between each version and the one before it.' },
    { name: 'diff-version', type: 'string', description: 'With -p, compare every version with this version number instead.' },
    { name: 'diff-tag', type: 'string', description: 'With -p, compare every version with the version tagged with this name instead.' },
    { name: 'full', type: 'bool', description: 'Print the whole job of each version.' },
    { name: 'version', type: 'string', description: 'Show only this version.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const diff = ctx.flags.p === true;
      const diffTag = ctx.flags['diff-tag'] === undefined ? '' : String(ctx.flags['diff-tag']);
      const diffVersionText = ctx.flags['diff-version'] === undefined ? '' : String(ctx.flags['diff-version']).trim();
      // Nomad's rules for the diff flags, with its messages.
      if (ctx.flags.json === true && diff) throw new UsageError('-json and -t are exclusive with -p and -full');
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
        if (versions.length === 0) throw new JobCommandFailure(`Could not find job version ${version}`);
      }
      if (ctx.flags.json === true) {
        ctx.io.out(JSON.stringify(version !== undefined ? versions[0] : versions, null, 4));
        return 0;
      }
      ctx.io.out(versions.map((v) => versionBlock(v, ctx.flags.full === true, diffs.get(v), ctx.io.color)).join('\n\n'));
      return 0;
    });
  },
});
