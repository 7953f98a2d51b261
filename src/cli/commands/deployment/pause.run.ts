/** `svc deployment pause`. The command's declaration is in src/cli/commands/deployment/pause.ts. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength, quote } from '../../output/nomad.js';
import { pauseDeployment } from '../../../api/deployments.js';
import { resolveDeployment } from '../../resolve/deployment.js';
import { orFail } from '../../failures/api.js';

export function deploymentPause(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const d = await resolveDeployment(client, ctx.args[0], idLength(ctx.flags.verbose));
    await orFail('Error pausing deployment', () => pauseDeployment(client, d.ID, true, d.Namespace));
    ctx.io.out(`Deployment ${quote(d.ID)} paused`);
    return 0;
  });
}
