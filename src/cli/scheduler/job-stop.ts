/**
 * `svc job stop` (and `svc stop`): stop jobs, asking first when a prefix named one on a terminal. The
 * command's declaration is in src/cli/commands/job/stop.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { ApiError, UsageError } from '../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../command-failure.js';
import { idLength } from '../output/nomad.js';
import { resolveJob } from './job-status.js';
import { deregisterJob } from '../../api/jobs.js';
import { monitorEvaluation } from '../monitor.js';

/** Asks a yes/no question on the terminal; answers the typed line. */
export async function ask(ctx: CommandContext, question: string): Promise<string> {
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

export function jobStop(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const evalPriority = ctx.flags['eval-priority'] as number | undefined;
    if (evalPriority !== undefined && (evalPriority < 1 || evalPriority > 100)) throw new UsageError('-eval-priority must be between 1 and 100');
    const client = clientFor(ctx);
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
      const code = await monitorEvaluation({ client, io: ctx.io, length: idLength(ctx.flags.verbose), namespace: job.Namespace }, resp.EvalID);
      worst = Math.max(worst, code);
    }
    return worst;
  });
}
