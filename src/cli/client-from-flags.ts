/**
 * Builds the API client from the common flags and the token file. The flags hold what src/cli/argv.ts
 * read for the ones not given: their SVC_* variable, then Nomad's and Vault's (src/cli/flags/env-names.ts).
 */
import { ApiClient } from '../api/http/client.js';
import type { CommandContext } from './define.js';
import { readTokenFile } from './token-file.js';

/** What a refusal most likely means when neither -token, a token variable nor the token file gave a token. */
export const NO_TOKEN_HINT = 'no token is set: run `svc login` or set SVC_TOKEN';

/**
 * The token requests send: -token, else SVC_TOKEN (or NOMAD_TOKEN, VAULT_TOKEN), else the token file, as
 * Vault's VAULT_TOKEN wins over its token helper; undefined for none.
 */
export function tokenFor(ctx: Pick<CommandContext, 'flags' | 'env'>): string | undefined {
  return (ctx.flags.token as string | undefined) || readTokenFile(ctx.env);
}

export function clientFor(ctx: CommandContext): ApiClient {
  const f = ctx.flags;
  const text = (name: string) => (f[name] as string | undefined) || undefined;
  const token = tokenFor(ctx);
  return new ApiClient({
    address: text('address') ?? 'http://127.0.0.1:4646',
    token,
    permissionDeniedHint: token ? undefined : NO_TOKEN_HINT,
    namespace: text('namespace'),
    region: text('region'),
    tls: {
      caCert: text('ca-cert'),
      caPath: text('ca-path'),
      clientCert: text('client-cert'),
      clientKey: text('client-key'),
      skipVerify: f['tls-skip-verify'] === true,
      serverName: text('tls-server-name'),
    },
    proxyEnv: ctx.env,
    outputCurlString: f['output-curl-string'] === true,
  });
}
