/** Builds the API client from the common flags, the SVC_* environment and the token file. */
import { ApiClient } from '../api/client.js';
import { parseGoBool } from '../shared/go-bool.js';
import type { CommandContext } from './define.js';
import { readTokenFile } from './token-file.js';

/** What a refusal most likely means when neither -token, SVC_TOKEN nor the token file gave a token. */
export const NO_TOKEN_HINT = 'no token is set: run `svc login` or set SVC_TOKEN';

/** The token requests send: -token, else SVC_TOKEN, else the token file; undefined for none. */
export function tokenFor(ctx: Pick<CommandContext, 'flags' | 'env'>): string | undefined {
  return (ctx.flags.token as string | undefined) || ctx.env.SVC_TOKEN || readTokenFile(ctx.env);
}

export function clientFor(ctx: CommandContext): ApiClient {
  const f = ctx.flags;
  const env = ctx.env;
  const token = tokenFor(ctx);
  return new ApiClient({
    address: (f.address as string | undefined) || env.SVC_ADDR || 'http://127.0.0.1:4646',
    token,
    permissionDeniedHint: token ? undefined : NO_TOKEN_HINT,
    namespace: (f.namespace as string | undefined) || env.SVC_NAMESPACE || undefined,
    region: (f.region as string | undefined) || env.SVC_REGION || undefined,
    tls: {
      caCert: (f['ca-cert'] as string | undefined) || env.SVC_CACERT || undefined,
      clientCert: (f['client-cert'] as string | undefined) || env.SVC_CLIENT_CERT || undefined,
      clientKey: (f['client-key'] as string | undefined) || env.SVC_CLIENT_KEY || undefined,
      skipVerify: (f['tls-skip-verify'] as boolean | undefined) ?? parseGoBool(env.SVC_SKIP_VERIFY ?? '') === true,
      serverName: (f['tls-server-name'] as string | undefined) || env.SVC_TLS_SERVER_NAME || undefined,
    },
    proxyEnv: env,
    outputCurlString: f['output-curl-string'] === true,
  });
}
