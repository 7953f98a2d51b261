/**
 * `svc node status`: the node list, or one node's screen. The command's declaration is in
 * src/cli/commands/node/status.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { getAlloc } from '../../../api/allocs.js';
import { getNode, listNodes, nodeAllocations } from '../../../api/nodes.js';
import { printSchedulerData } from '../../output/scheduler-output.js';
import { namedNode } from './self.js';
import { UsageError } from '../../../shared/errors.js';
import { nodeListTable, resolveNode } from '../../resolve/node.js';
import { formatNode, type NodeUsage } from './status-screen.js';
import type { ApiClient } from '../../../api/http/client.js';
import type { Allocation } from '../../../api/allocs.js';
import type { AllocResourceUsage, HostStats } from '../../../scheduler/wire/resource-usage.js';

/** -stats: the host's figures and its running allocations' usage; a warning instead when the node cannot be asked, as in Nomad. */
async function utilization(ctx: CommandContext, client: ApiClient, nodeId: string, running: Allocation[]): Promise<NodeUsage | undefined> {
  try {
    const host = (await client.scheduler<HostStats>('GET', '/v1/client/stats', { query: { node_id: nodeId } })).body;
    const allocs = await Promise.all(
      running.map((a) =>
        client
          .scheduler<AllocResourceUsage>('GET', `/v1/client/allocation/${a.ID}/stats`, { query: { namespace: a.Namespace } })
          .then((r) => r.body)
          .catch(() => undefined),
      ),
    );
    return { host, allocs: allocs.filter((a): a is AllocResourceUsage => a !== undefined) };
  } catch (err) {
    ctx.io.err(`Couldn't retrieve stats: ${(err as Error).message}`);
    return undefined;
  }
}

export function nodeStatus(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const verbose = ctx.flags.verbose === true;
    if (ctx.flags.self === true && ctx.args.length > 0) throw new UsageError('-self names the node: give no node ID with it');
    if (ctx.args.length === 0 && ctx.flags.self !== true) {
      const nodes = await listNodes(client);
      return printSchedulerData(ctx, nodes, () => (nodes.length === 0 ? 'No nodes registered' : nodeListTable(nodes, verbose)));
    }
    const stub = await resolveNode(client, await namedNode(ctx, client), verbose);
    const node = await getNode(client, stub.ID);
    return printSchedulerData(ctx, node, async () => {
      const allocs = await nodeAllocations(client, node.ID);
      const running = ctx.flags.short === true ? [] : await Promise.all(allocs.filter((a) => a.ClientStatus === 'running').map((a) => getAlloc(client, a.ID, a.Namespace)));
      const usage = ctx.flags.stats === true && ctx.flags.short !== true ? await utilization(ctx, client, node.ID, running) : undefined;
      return formatNode(node, allocs, running, { verbose, short: ctx.flags.short === true, nowMs: Date.now(), usage });
    });
  });
}
