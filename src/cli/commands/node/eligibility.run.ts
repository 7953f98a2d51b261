/**
 * `svc node eligibility`: marks a node eligible or ineligible for new placements. The command's
 * declaration is in src/cli/commands/node/eligibility.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { setNodeEligibility } from '../../../api/nodes.js';
import { resolveNode } from '../../resolve/node.js';
import { checkNodeArgument, namedNode } from './self.js';

export function nodeEligibility(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const enable = ctx.flags.enable === true;
    if (enable === (ctx.flags.disable === true)) throw new UsageError('Either the -enable or the -disable flag must be set, but not both');
    checkNodeArgument(ctx);
    const client = clientFor(ctx);
    const node = await resolveNode(client, await namedNode(ctx, client), false);
    try {
      await setNodeEligibility(client, node.ID, enable);
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error updating scheduling eligibility: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    ctx.io.out(`Node "${node.ID}" scheduling eligibility set: ${enable ? 'eligible' : 'ineligible'} for scheduling`);
    return 0;
  });
}
