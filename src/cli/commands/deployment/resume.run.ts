/**
 * `svc deployment resume`: resume a paused deployment and follow the evaluation that carries on with it.
 * The command's declaration is in src/cli/commands/deployment/resume.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength, quote } from '../../output/nomad.js';
import { pauseDeployment } from '../../../api/deployments.js';
import { monitorEvaluation } from '../../monitor.js';
import { resolveDeployment } from '../../resolve/deployment.js';
import { orFail } from '../../failures/api.js';

export function deploymentResume(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const length = idLength(ctx.flags.verbose);
    const client = clientFor(ctx);
    const d = await resolveDeployment(client, ctx.args[0], length);
    const u = await orFail('Error resuming deployment', () => pauseDeployment(client, d.ID, false, d.Namespace));
    ctx.io.out(`Deployment ${quote(d.ID)} resumed`);
    if (ctx.flags.detach === true || !u.EvalID) return 0;
    ctx.io.out('');
    return monitorEvaluation({ client, io: ctx.io, length, namespace: d.Namespace }, u.EvalID);
  });
}
