/**
 * `svc job revert`: register an earlier version of a job again, named by number or by tag, then follow
 * the evaluation. The command's declaration is in src/cli/commands/job/revert.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { jobVersionList, revertJob } from '../../../api/job-versions.js';
import { monitorEvaluation } from '../../monitor.js';
import type { ApiClient } from '../../../api/http/client.js';

/** A version number as typed, or the version the tag of that name marks (resolved here, as Nomad's CLI does). */
async function versionOf(client: ApiClient, jobId: string, namespace: string, typed: string): Promise<number> {
  if (/^\d+$/.test(typed)) return Number(typed);
  const tagged = (await jobVersionList(client, jobId, namespace)).find((v) => v.VersionTag?.Name === typed);
  if (!tagged) throw new CommandFailure(`Error retrieving job versions: version tag "${typed}" not found for job "${jobId}"`);
  return tagged.Version;
}

export function jobRevert(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    let evalId: string;
    try {
      const version = await versionOf(client, job.ID, job.Namespace, ctx.args[1].trim());
      evalId = (await revertJob(client, job.ID, version, job.Namespace)).EvalID;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error reverting job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    // Periodic and parameterized jobs are registered without an evaluation: nothing to follow.
    if (!evalId) return 0;
    if (ctx.flags.detach === true) {
      ctx.io.out(`Evaluation ID: ${evalId}`);
      return 0;
    }
    return monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, evalId);
  });
}
