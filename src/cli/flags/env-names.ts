/**
 * The environment variables a flag is read from when it is not given. Its own SVC_* variable comes first;
 * then, for the settings Vault's and Nomad's CLIs share with svc (the address, the token, TLS, the
 * namespace), their variables, so a shell set up for either tool works unchanged. A scheduler command
 * reads the NOMAD_* one before the VAULT_* one; every other command reads VAULT_* first. On the start-up
 * path: no imports.
 */
import type { CommandSpec, FlagSpec } from '../define.js';

export type Family = CommandSpec['family'];

/** The variables `flag` is read from, in the order they are tried for a command of `family`. */
export function envNames(flag: Pick<FlagSpec, 'env' | 'upstreamEnv'>, family?: Family): string[] {
  const up = flag.upstreamEnv ?? {};
  const upstream = family === 'scheduler' ? [up.nomad, up.vault] : [up.vault, up.nomad];
  return [flag.env, ...upstream].filter((name): name is string => name !== undefined);
}

/** The first of those variables that is set (and not empty), with its text. */
export function envSource(flag: Pick<FlagSpec, 'env' | 'upstreamEnv'>, env: Readonly<Record<string, string | undefined>> | undefined, family?: Family): { name: string; text: string } | undefined {
  for (const name of envNames(flag, family)) {
    const text = env?.[name];
    if (text) return { name, text };
  }
  return undefined;
}

/** The sentence help and the man pages append to a flag's description; '' for a flag without variables. */
export function envSentence(flag: Pick<FlagSpec, 'env' | 'upstreamEnv'>, family?: Family): string {
  const [first, ...rest] = envNames(flag, family);
  if (first === undefined) return '';
  const also = rest.length === 0 ? '' : `; when it is unset, ${rest.join(', then ')}`;
  return ` This can also be specified via the ${first} environment variable${also}.`;
}
