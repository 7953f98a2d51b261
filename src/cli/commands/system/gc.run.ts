/** `svc system gc`: asks the server to collect everything finished, now. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

export async function systemGc(ctx: CommandContext): Promise<number> {
  await clientFor(ctx).scheduler('PUT', '/v1/system/gc');
  return 0;
}
