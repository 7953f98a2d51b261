import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength, limit, quote } from '../../output/nomad.js';
import { resolveJob } from './status.js';

export default defineCommand({
  path: ['job', 'eval'],
  synopsis: 'Force an evaluation of a job',
  usage: 'svc job eval [options] JOB',
  description:
    'Creates a new evaluation of a job (an ID or a unique ID prefix), so the scheduler looks at it again: ' +
    'for example after nodes were added, or with -force-reschedule to replace failed allocations now ' +
    'rather than after their reschedule delay. Then follows the evaluation, unless -detach.',
  examples: [{ command: 'svc job eval example' }, { command: 'svc job eval -force-reschedule -detach example' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job, or a prefix matching several jobs', 2: 'some allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'force-reschedule', type: 'bool', description: 'Reschedule failed allocations now, even those whose reschedule delay has not passed.' },
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const client = clientFor(ctx);
      const job = await resolveJob(ctx, client, ctx.args[0]);
      const { evaluateJob } = await import('../../../api/jobs.js');
      let evalId: string;
      try {
        evalId = (await evaluateJob(client, job.ID, { forceReschedule: ctx.flags['force-reschedule'] === true, namespace: job.Namespace })).EvalID;
      } catch (err) {
        if (err instanceof ApiError) throw new CommandFailure(`Error evaluating job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
        throw err;
      }
      const length = idLength(ctx.flags.verbose);
      if (ctx.flags.detach === true) {
        ctx.io.out(`Created eval ID: ${quote(limit(evalId, length))}`);
        return 0;
      }
      const { monitorEvaluation } = await import('../../monitor.js');
      return monitorEvaluation({ client, io: ctx.io, length, namespace: job.Namespace }, evalId);
    });
  },
});
