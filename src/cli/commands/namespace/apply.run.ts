/** `svc namespace apply`: creates the namespace, or updates the settings given on the command line. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';

export async function namespaceApply(ctx: CommandContext): Promise<number> {
  const name = ctx.args[0];
  const client = clientFor(ctx);
  const path = `/v1/namespace/${encodeURIComponent(name)}`;
  let current: Record<string, unknown> = { Name: name };
  try {
    current = (await client.scheduler<Record<string, unknown>>('GET', path)).body;
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
  }
  const ns = { Name: name, Description: current.Description ?? '', Meta: current.Meta ?? {} };
  if (ctx.flags.description !== undefined) ns.Description = ctx.flags.description as string;
  await client.scheduler('POST', path, { body: ns });
  ctx.io.out(`Successfully applied namespace ${JSON.stringify(name)}!`);
  return 0;
}
