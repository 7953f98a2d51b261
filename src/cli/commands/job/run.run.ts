/**
 * `svc job run` (and `svc run`): submit a job file, then follow its evaluation and, for a job that rolls
 * out under a deployment (service jobs), the deployment. The command's declaration is in
 * src/cli/commands/job/run.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { loadJobFileOfCommand } from '../../job-file.js';
import { registerJob } from '../../../api/jobs.js';
import { followEvaluation } from '../../monitor.js';
import { monitorDeployment } from '../../deployment-monitor.js';
import { jobLatestDeployment } from '../../../api/deployments.js';
import type { ApiClient } from '../../../api/http/client.js';
import type { PeriodicConfig } from '../../../scheduler/structs/policies.js';
import { nextLaunchText } from './periodic-launch.js';

/** The upstream message the CLI recognises a check-and-set conflict by. */
const ENFORCE_INDEX = 'Enforcing job modify index';

/** A non-negative integer flag (Nomad parses -check-index as an unsigned integer). */
function indexFlag(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`invalid value "${String(value)}" for -${name}: expected a non-negative integer`);
  return n;
}

export function jobRun(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const checkIndex = indexFlag(ctx.flags['check-index'], 'check-index');
    const evalPriority = ctx.flags['eval-priority'] as number | undefined;
    if (evalPriority !== undefined && (evalPriority < 1 || evalPriority > 100)) throw new UsageError('-eval-priority must be between 1 and 100');
    const loaded = await loadJobFileOfCommand(ctx);
    const job = loaded.job as Record<string, unknown>;
    if (ctx.flags.output === true) {
      ctx.io.out(JSON.stringify({ Job: job }, null, 4));
      return 0;
    }
    const periodic = job.Periodic !== undefined && job.Periodic !== null;
    const parameterized = job.ParameterizedJob !== undefined && job.ParameterizedJob !== null;
    // A namespace in the job file wins over -namespace, as upstream.
    const namespace = typeof job.Namespace === 'string' && job.Namespace !== '' ? job.Namespace : undefined;

    const client = clientFor(ctx);
    let resp;
    try {
      resp = await registerJob(
        client,
        {
          Job: job,
          Submission: loaded.submission,
          ...(checkIndex !== undefined ? { EnforceIndex: true, JobModifyIndex: checkIndex } : {}),
          ...(evalPriority !== undefined ? { EvalPriority: evalPriority } : {}),
          ...(ctx.flags['policy-override'] === true ? { PolicyOverride: true } : {}),
          ...(ctx.flags['preserve-counts'] === true ? { PreserveCounts: true } : {}),
        },
        namespace,
      );
    } catch (err) {
      if (err instanceof ApiError) {
        const text = err.errors.join('; ');
        const at = text.indexOf(ENFORCE_INDEX);
        if (at >= 0) throw new CommandFailure(`${text.slice(at).replace(/\)$/, '')}\nJob not updated`);
        throw new CommandFailure(`Error submitting job: Unexpected response code: ${err.statusCode} (${text})`);
      }
      throw err;
    }
    if (resp.Warnings) ctx.io.out(`Job Warnings:\n${resp.Warnings}\n\n`);

    if (ctx.flags.detach === true || periodic || parameterized || !resp.EvalID) {
      ctx.io.out('Job registration successful');
      if (periodic && !parameterized) {
        const next = nextLaunchText(job.Periodic as Partial<PeriodicConfig>, Date.now());
        if (next) ctx.io.out(`Approximate next launch time: ${next}`);
      } else if (!periodic && !parameterized && resp.EvalID) ctx.io.out(`Evaluation ID: ${resp.EvalID}`);
      return 0;
    }
    const length = idLength(ctx.flags.verbose);
    const outcome = await followEvaluation({ client, io: ctx.io, length, namespace }, resp.EvalID);
    // An unreadable evaluation, or allocations that could not be placed: the deployment would only wait
    // for capacity until its progress deadline, so the placement failure is the answer.
    if (outcome.code !== 0) return outcome.code;
    const deploymentId = outcome.deploymentId || (await runningDeploymentOf(client, String(job.ID ?? ''), resp.JobModifyIndex, namespace));
    if (!deploymentId) return 0;
    return monitorDeployment({ client, io: ctx.io, length, verbose: ctx.flags.verbose === true }, deploymentId, namespace);
  });
}

/**
 * The running deployment of the version just registered, when the evaluation did not name one (it
 * placed nothing, for instance an unchanged job submitted again while its rollout goes on): "" if none.
 */
async function runningDeploymentOf(client: ApiClient, jobId: string, jobModifyIndex: number, namespace: string | undefined): Promise<string> {
  if (!jobId) return '';
  const latest = await jobLatestDeployment(client, jobId, namespace).catch(() => null);
  if (!latest || latest.Status !== 'running') return '';
  return latest.JobSpecModifyIndex === jobModifyIndex ? latest.ID : '';
}
