import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
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
 * values stay empty and `Full` carries a multi-line value after its key.
 */
function versionBlock(v: JobVersion, full: boolean): string {
  const rows: Array<[string, string]> = [
    ['Version', String(v.Version)],
    ['Stable', String(v.Stable)],
    ['Submit Date', formatNomadTime(v.SubmitTime)],
  ];
  if (v.VersionTag) rows.push(['Tag Name', v.VersionTag.Name], ['Tag Description', v.VersionTag.Description]);
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
    'stable and when it was submitted. -full adds each version\'s whole job.',
  examples: [
    { command: 'svc job history example' },
    { command: 'svc job history -version 2 -full example', description: 'One version, with its job' },
    { command: 'svc job history -json example', description: 'The versions as a JSON array' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job or version, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'p', type: 'bool', description: 'Show the differences between each version and the one before. Not available yet: the server does not compute diffs.' },
    { name: 'full', type: 'bool', description: 'Print the whole job of each version.' },
    { name: 'version', type: 'string', description: 'Show only this version.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      // Refused rather than ignored: printing versions without the asked-for diffs would look like "no changes".
      if (ctx.flags.p === true) throw new UsageError('-p is not supported yet: the server does not compute version diffs');
      const version = parseVersionFlag(ctx.flags.version);
      const client = clientFor(ctx);
      const stub = await resolveJob(ctx, client, ctx.args[0]);
      const { body } = await client.scheduler<{ Versions: JobVersion[] }>('GET', jobPath(stub.ID, '/versions'), { query: { namespace: stub.Namespace } });
      let versions = body?.Versions ?? [];
      if (version !== undefined) {
        versions = versions.filter((v) => v.Version === version);
        if (versions.length === 0) throw new JobCommandFailure(`Could not find job version ${version}`);
      }
      if (ctx.flags.json === true) {
        ctx.io.out(JSON.stringify(version !== undefined ? versions[0] : versions, null, 4));
        return 0;
      }
      ctx.io.out(versions.map((v) => versionBlock(v, ctx.flags.full === true)).join('\n\n'));
      return 0;
    });
  },
});
