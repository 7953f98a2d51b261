/** What `svc deployment promote` and `svc job promote` show after promoting: the evaluation, then the deployment. */
import type { CommandContext } from '../define.js';
import type { ApiClient } from '../../api/http/client.js';
import { idLength } from '../output/nomad.js';
import { followEvaluation } from '../monitor.js';
import { monitorDeployment } from '../deployment-monitor.js';

/** The promotion's evaluation, then the deployment it carries on, as Nomad's monitor follows both. */
export async function followPromotion(ctx: CommandContext, client: ApiClient, namespace: string, evalId: string, deploymentId: string): Promise<number> {
  const length = idLength(ctx.flags.verbose);
  const outcome = await followEvaluation({ client, io: ctx.io, length, namespace }, evalId);
  if (outcome.code !== 0) return outcome.code;
  return monitorDeployment({ client, io: ctx.io, length, verbose: ctx.flags.verbose === true }, outcome.deploymentId || deploymentId, namespace);
}
