/**
 * `svc deployment status`: one deployment, or with -monitor, the deployment followed to its end. The
 * command's declaration is in src/cli/commands/deployment/status.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { printSchedulerData, wantsTable } from '../../output/scheduler-output.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { formatDeployment } from '../../output/deployment.js';
import { getDeployment } from '../../../api/deployments.js';
import { monitorDeployment } from '../../deployment-monitor.js';
import { resolveDeployment } from '../../resolve/deployment.js';
import { orFail } from '../../failures/api.js';
import listCommand from './list.js';

/** Without a deployment, `svc deployment list` with the same flags, as Nomad's command does. */
export function deploymentStatus(ctx: CommandContext): Promise<number | void> {
  if (ctx.args.length === 0) {
    if (ctx.flags.monitor === true) return Promise.reject(new UsageError('-monitor needs a deployment'));
    return listCommand.run(ctx);
  }
  return reportingFailures(ctx, async () => {
    if (ctx.flags.monitor === true && !wantsTable(ctx)) throw new UsageError('-monitor prints progress, not data: it cannot be combined with -json, -format, -field or -t');
    const verbose = ctx.flags.verbose === true;
    const length = idLength(verbose);
    const client = clientFor(ctx);
    const found = await resolveDeployment(client, ctx.args[0], length);
    if (ctx.flags.monitor === true) {
      return monitorDeployment({ client, io: ctx.io, length, verbose }, found.ID, found.Namespace);
    }
    const { deployment } = await orFail('Error retrieving deployment', () => getDeployment(client, found.ID, { namespace: found.Namespace }));
    return printSchedulerData(ctx, deployment, () => formatDeployment(deployment, length));
  });
}
