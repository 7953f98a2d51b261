/**
 * `svc job tag apply`: name a job version (the current one unless -version), so it is kept and can be
 * compared with or reverted to by that name. The command's declaration is in src/cli/commands/job/tag-apply.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { resolveJob } from '../../resolve/job.js';
import { tagJobVersion } from '../../../api/job-versions.js';
import { jobPath } from '../../../api/jobs.js';

export function jobTagApply(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const name = String(ctx.flags.name ?? '');
    if (name === '') throw new UsageError('A version tag name is required');
    const versionText = ctx.flags.version === undefined ? '' : String(ctx.flags.version).trim();
    if (versionText !== '' && !/^\d+$/.test(versionText)) throw new UsageError(`Error parsing version: invalid version "${versionText}"`);
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    try {
      const version =
        versionText !== ''
          ? Number(versionText)
          : (await client.scheduler<{ Version: number }>('GET', jobPath(job.ID), { query: { namespace: job.Namespace } })).body.Version;
      await tagJobVersion(client, job.ID, name, { version, description: String(ctx.flags.description ?? ''), namespace: job.Namespace });
      ctx.io.out(`Job version ${version} tagged with name "${name}"`);
      return 0;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error tagging job version: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
  });
}
