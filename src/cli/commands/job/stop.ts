import { defineCommand, type CommandContext, type CommandSpec } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { resolveJob } from './status.js';

/** Asks a yes/no question on the terminal; answers the typed line. */
async function ask(ctx: CommandContext, question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: false });
  ctx.io.stderr.write(`${question} `);
  try {
    return await new Promise<string>((resolve) => {
      rl.once('line', (line) => resolve(line));
      rl.once('close', () => resolve(''));
    });
  } finally {
    rl.close();
  }
}

export const stopCommand = defineCommand({
  path: ['job', 'stop'],
  synopsis: 'Stop a running job',
  usage: 'svc job stop [options] JOB...',
  description:
    'Stops each named job (an ID or a unique ID prefix) and follows the evaluation that stops its ' +
    'allocations. A stopped job stays visible, marked "(stopped)", until garbage collection; -purge removes ' +
    'it at once. When a job was named by a prefix rather than its full ID, the command asks for confirmation ' +
    'if stdin is a terminal; -yes skips the question.',
  examples: [
    { command: 'svc job stop example' },
    { command: 'svc job stop -purge -detach example', description: 'Remove the job at once; print the evaluation ID' },
  ],
  exitCodes: { 0: 'every job was stopped (or the stop was declined)', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'purge', type: 'bool', description: 'Remove the job and its history at once instead of leaving it for garbage collection.' },
    { name: 'global', type: 'bool', description: 'Stop a multi-region job in every region (svc has one region).' },
    { name: 'no-shutdown-delay', type: 'bool', description: 'Ignore the groups\' and tasks\' shutdown_delay.' },
    { name: 'eval-priority', type: 'int', description: 'Priority of the evaluation that stops the job (1 to 100).' },
    { name: 'yes', type: 'bool', description: 'Do not ask for confirmation when a job was named by a prefix.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'Job IDs or unique prefixes of them.', required: true, variadic: true, complete: 'job' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const evalPriority = ctx.flags['eval-priority'] as number | undefined;
      if (evalPriority !== undefined && (evalPriority < 1 || evalPriority > 100)) throw new UsageError('-eval-priority must be between 1 and 100');
      const client = clientFor(ctx);
      const { deregisterJob } = await import('../../../api/jobs.js');
      let worst = 0;
      for (const typed of ctx.args) {
        const job = await resolveJob(ctx, client, typed);
        if (typed !== job.ID && ctx.flags.yes !== true && ctx.io.stdin.isTTY === true) {
          const answer = (await ask(ctx, `Are you sure you want to stop job "${job.ID}"? [y/N]`)).trim().toLowerCase();
          if (answer === '' || answer === 'n' || answer === 'no') {
            ctx.io.out('Cancelling job stop');
            continue;
          }
          if (answer !== 'y' && answer !== 'yes') throw new CommandFailure(`Unexpected answer "${answer}"`);
        }
        let resp;
        try {
          resp = await deregisterJob(client, job.ID, {
            namespace: job.Namespace,
            purge: ctx.flags.purge === true,
            global: ctx.flags.global === true,
            noShutdownDelay: ctx.flags['no-shutdown-delay'] === true,
            evalPriority,
          });
        } catch (err) {
          if (err instanceof ApiError) throw new CommandFailure(`Error deregistering job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
          throw err;
        }
        // Periodic and parameterized jobs are stopped without an evaluation.
        if (!resp.EvalID) continue;
        if (ctx.flags.detach === true) {
          ctx.io.out(resp.EvalID);
          continue;
        }
        const { monitorEvaluation } = await import('../../monitor.js');
        const code = await monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, resp.EvalID);
        worst = Math.max(worst, code);
      }
      return worst;
    });
  },
});

/** `svc stop`: the same command under its top-level name, as Nomad's `stop` alias. */
export const stopAlias: CommandSpec = { ...stopCommand, path: ['stop'], usage: 'svc stop [options] JOB...', synopsis: 'Stop a running job (alias of "job stop")' };

export default stopCommand;
