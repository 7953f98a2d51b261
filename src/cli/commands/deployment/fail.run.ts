/**
 * `svc deployment fail`: mark a deployment failed (rolling back with auto_revert). The command's
 * declaration is in src/cli/commands/deployment/fail.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength, quote } from '../../output/nomad.js';
import { failDeployment } from '../../../api/deployments.js';
import { monitorEvaluation } from '../../monitor.js';
import { resolveDeployment } from '../../resolve/deployment.js';
import { orFail } from '../../failures/api.js';

export function deploymentFail(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const length = idLength(ctx.flags.verbose);
    const client = clientFor(ctx);
    const d = await resolveDeployment(client, ctx.args[0], length);
    const u = await orFail('Error failing deployment', () => failDeployment(client, d.ID, d.Namespace));
    ctx.io.out(`Deployment ${quote(d.ID)} failed`);
    if (u.RevertedJobVersion !== undefined && u.RevertedJobVersion !== null) ctx.io.out(`Rolling back to job version ${u.RevertedJobVersion}`);
    if (ctx.flags.detach === true || !u.EvalID) return 0;
    ctx.io.out('');
    return monitorEvaluation({ client, io: ctx.io, length, namespace: d.Namespace }, u.EvalID);
  });
}
