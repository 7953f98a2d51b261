/**
 * `svc alloc stop`: stop an allocation, then follow the evaluation that replaces it. The command's
 * declaration is in src/cli/commands/alloc/stop.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { apiFailure, resolveAlloc } from '../../resolve/alloc.js';
import { stopAlloc } from '../../../api/allocs.js';
import { monitorEvaluation } from '../../monitor.js';

export function allocStop(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const length = idLength(ctx.flags.verbose);
    const alloc = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
    const resp = await stopAlloc(client, alloc.ID, { noShutdownDelay: ctx.flags['no-shutdown-delay'] === true, namespace: alloc.Namespace }).catch((err: unknown) =>
      apiFailure('stopping allocation', err),
    );
    if (ctx.flags.detach === true || !resp.EvalID) {
      if (resp.EvalID) ctx.io.out(resp.EvalID);
      return 0;
    }
    return monitorEvaluation({ client, io: ctx.io, length, namespace: alloc.Namespace }, resp.EvalID);
  });
}
