/**
 * `svc deployment promote`: promote a deployment's canaries, then follow the evaluation. The command's
 * declaration is in src/cli/commands/deployment/promote.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { promoteDeployment } from '../../../api/deployments.js';
import { followPromotion } from '../../follow/promotion.js';
import { resolveDeployment } from '../../resolve/deployment.js';
import { orFail } from '../../failures/api.js';

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
