/**
 * `svc job inspect`: a job as the server holds it, or the file it was submitted as. The command's
 * declaration is in src/cli/commands/job/inspect.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { printSchedulerData, wantsTable } from '../../output/scheduler-output.js';
import { UsageError } from '../../../shared/errors.js';
import type { ApiClient } from '../../../api/http/client.js';
import { jobPath } from '../../../api/jobs.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { resolveJob, type JobListStub } from '../../resolve/job.js';
import { parseVersionFlag } from './versions.js';

type Job = Record<string, unknown> & { Version: number };

/** The job's versions, newest first, read in the job's own namespace. */
async function jobVersions(client: ApiClient, stub: JobListStub): Promise<Job[]> {
  const { body } = await client.scheduler<{ Versions: Job[] }>('GET', jobPath(stub.ID, '/versions'), { query: { namespace: stub.Namespace } });
  return body?.Versions ?? [];
}

export function jobInspect(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const version = parseVersionFlag(ctx.flags.version);
    if (ctx.flags.hcl === true && !wantsTable(ctx)) throw new UsageError('-hcl prints the submitted file: it cannot be combined with -json, -format, -field or -t');
    const client = clientFor(ctx);
    const stub = await resolveJob(ctx, client, ctx.args[0]);
    let job: Job;
    if (version === undefined) {
      job = (await client.scheduler<Job>('GET', jobPath(stub.ID), { query: { namespace: stub.Namespace } })).body;
    } else {
      const found = (await jobVersions(client, stub)).find((v) => v.Version === version);
      if (!found) throw new CommandFailure(`Error inspecting job: job "${stub.ID}" with version ${version} couldn't be found`);
      job = found;
    }
    if (ctx.flags.hcl === true) {
      const { body } = await client.scheduler<{ Source: string }>('GET', jobPath(stub.ID, '/submission'), {
        query: { namespace: stub.Namespace, version: String(job.Version) },
      });
      ctx.io.out(body.Source);
      return 0;
    }
    // Nomad's default output is the job, wrapped as `job run -json` reads it, in Go's indentation.
    return printSchedulerData(ctx, job, () => JSON.stringify({ Job: job }, null, 4));
  });
}
