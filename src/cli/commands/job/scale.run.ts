/**
 * `svc job scale`: change a task group's count, then follow the evaluation it creates. The command's
 * declaration is in src/cli/commands/job/scale.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { jobScaleStatus, scaleJob } from '../../../api/job-scale.js';
import { monitorEvaluation } from '../../monitor.js';

/** The message every scaling event made by this command carries, as Nomad's CLI sends its own. */
const SCALE_MESSAGE = 'submitted using the svc CLI';

/** The group a user means: the one given, or the job's only group. */
function chooseGroup(groups: string[], given: string): string {
  if (given === '') {
    if (groups.length > 1) throw new CommandFailure('Group name required');
    return groups[0];
  }
  if (!groups.includes(given)) throw new CommandFailure(`Group ${given} not found within job`);
  return given;
}

export function jobScale(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const [typed, ...rest] = ctx.args;
    const [group, countText] = rest.length === 2 ? rest : ['', rest[0]];
    if (!/^-?\d+$/.test(countText)) throw new UsageError(`Failed to convert count string to int: invalid count "${countText}"`);
    const checkIndexText = ctx.flags['check-index'];
    if (checkIndexText !== undefined && !/^\d+$/.test(String(checkIndexText))) {
      throw new UsageError(`invalid value "${String(checkIndexText)}" for -check-index: expected a non-negative integer`);
    }
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, typed);
    let resp;
    try {
      const status = await jobScaleStatus(client, job.ID, job.Namespace);
      const target = chooseGroup(Object.keys(status.TaskGroups), group);
      resp = await scaleJob(
        client,
        job.ID,
        {
          Count: Number(countText),
          Target: { Group: target },
          Message: SCALE_MESSAGE,
          ...(checkIndexText !== undefined ? { EnforceIndex: true, JobModifyIndex: Number(checkIndexText) } : {}),
        },
        job.Namespace,
      );
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error submitting scaling request: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    if (resp.Warnings) ctx.io.out(`Job Warnings:\n${resp.Warnings}\n`);
    // The count was already what was asked: an event is recorded, nothing is evaluated.
    if (!resp.EvalID) {
      ctx.io.out('Job scale successful');
      return 0;
    }
    if (ctx.flags.detach === true) {
      ctx.io.out(`Evaluation ID: ${resp.EvalID}`);
      return 0;
    }
    return monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, resp.EvalID);
  });
}
