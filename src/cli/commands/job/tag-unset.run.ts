/**
 * `svc job tag unset`: remove a tag from the job version that holds it. The command's declaration is in
 * src/cli/commands/job/tag-unset.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { resolveJob } from '../../resolve/job.js';
import { untagJobVersion } from '../../../api/job-versions.js';

export function jobTagUnset(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const name = String(ctx.flags.name ?? '');
    if (name === '') throw new UsageError('A version tag name is required');
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    try {
      await untagJobVersion(client, job.ID, name, job.Namespace);
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error removing job version tag: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    ctx.io.out(`Tag "${name}" removed from job "${job.ID}"`);
    return 0;
  });
}
