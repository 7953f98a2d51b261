/** `svc namespace delete`: deletes the namespace the argument names. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

export async function namespaceDelete(ctx: CommandContext): Promise<number> {
  const name = ctx.args[0];
  await clientFor(ctx).scheduler('DELETE', `/v1/namespace/${encodeURIComponent(name)}`);
  ctx.io.out(`Successfully deleted namespace ${JSON.stringify(name)}!`);
  return 0;
}
