/**
 * `svc deployment promote`: promote a deployment's canaries, then follow the evaluation. The command's
 * declaration is in src/cli/commands/deployment/promote.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { reportingFailures } from '../command-failure.js';
import { idLength } from '../output/nomad.js';
import { promoteDeployment } from '../../api/deployments.js';
import { followEvaluation } from '../monitor.js';
import type { ApiClient } from '../../api/http/client.js';
import { monitorDeployment } from '../deployment-monitor.js';
import { resolveDeployment } from './deployment-resolve.js';
import { orFail } from './deployment-errors.js';

export function deploymentPromote(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const length = idLength(ctx.flags.verbose);
    const client = clientFor(ctx);
    const d = await resolveDeployment(client, ctx.args[0], length);
    const groups = (ctx.flags.group as string[] | undefined) ?? [];
    const u = await orFail('Error promoting deployment', () => promoteDeployment(client, d.ID, groups, d.Namespace));
    if (!u.EvalID) return 0;
    if (ctx.flags.detach === true) {
      ctx.io.out(`Evaluation ID: ${u.EvalID}`);
      return 0;
    }
    return followPromotion(ctx, client, d.Namespace, u.EvalID, d.ID);
  });
}

/** The promotion's evaluation, then the deployment it carries on, as Nomad's monitor follows both. */
export async function followPromotion(ctx: CommandContext, client: ApiClient, namespace: string, evalId: string, deploymentId: string): Promise<number> {
  const length = idLength(ctx.flags.verbose);
  const outcome = await followEvaluation({ client, io: ctx.io, length, namespace }, evalId);
  if (outcome.code !== 0) return outcome.code;
  return monitorDeployment({ client, io: ctx.io, length, verbose: ctx.flags.verbose === true }, outcome.deploymentId || deploymentId, namespace);
}
