/** Builds the API client from the common flags, the SVC_* environment and the token file. */
import { ApiClient } from '../api/client.js';
import type { CommandContext } from './define.js';
import { readTokenFile } from './token-file.js';

export function clientFor(ctx: CommandContext): ApiClient {
  const f = ctx.flags;
  return new ApiClient({
    address: (f.address as string | undefined) || ctx.env.SVC_ADDR || 'http://127.0.0.1:4646',
    token: (f.token as string | undefined) || ctx.env.SVC_TOKEN || readTokenFile(ctx.env),
    namespace: (f.namespace as string | undefined) || ctx.env.SVC_NAMESPACE || undefined,
    region: (f.region as string | undefined) || ctx.env.SVC_REGION || undefined,
  });
}
