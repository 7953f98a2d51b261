/**
 * The node that `svc node eligibility` and `svc node drain` act on: their argument, or with -self the
 * node of the server the command talks to (Nomad's getLocalNodeID, which reads the agent's self
 * description).
 */
import type { CommandContext } from '../../define.js';
import type { ApiClient } from '../../../api/http/client.js';
import { localNodeId } from '../../../api/agent.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure } from '../../command-failure.js';

/** A node argument, or -self without one. */
export function checkNodeArgument(ctx: CommandContext): void {
  if (ctx.flags.self === true ? ctx.args.length !== 0 : ctx.args.length !== 1) throw new UsageError("Node ID must be specified if -self isn't being used");
}

/** What the user typed for the node (an ID or a prefix), or the server's own node's ID with -self. */
export async function namedNode(ctx: CommandContext, client: ApiClient): Promise<string> {
  if (ctx.flags.self !== true) return ctx.args[0];
  let id: string | undefined;
  try {
    id = await localNodeId(client);
  } catch (err) {
    if (err instanceof ApiError) throw new CommandFailure(`Error querying agent info: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
    throw err;
  }
  if (!id) throw new CommandFailure('svc not running in client mode');
  return id;
}
