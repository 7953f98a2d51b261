import { defineCommand, type CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { kvSources } from '../kv-args.js';
import { writeTokenFile } from '../token-file.js';
import { ApiClient } from '../../api/http/client.js';
import { UsageError } from '../../shared/errors.js';
import { authMountName } from '../auth-mount.js';
import type { OutputFormat, SecretResponse } from '../output/format.js';
import { askHidden } from '../prompt.js';
import { CLOUD_LOGIN_CHOICES } from '../cloud-login-choices.js';
import { HTTP_FLAGS } from '../flags/common.js';
import { envSource } from '../flags/env-names.js';

const TOKEN_FLAG = HTTP_FLAGS.find((f) => f.name === 'token')!;

/**
 * One way of logging in. It turns the command's arguments into a secrets response with an `auth` block;
 * the command then stores and prints the token the same way for every method.
 */
export interface LoginMethod {
  /** `mount`: where the method is enabled, relative to auth/ (-path, else the method's name). */
  login(ctx: CommandContext, args: string[], mount: string): Promise<SecretResponse & { auth: Record<string, unknown> }>;
}

/** Loaded on use, so an auth method with heavy dependencies costs nothing to the others. */
export const LOGIN_METHODS: Record<string, () => Promise<LoginMethod>> = {
  token: async () => tokenMethod,
  cloud: async () => (await import('../login-methods/cloud.js')).cloudMethod,
};

const tokenMethod: LoginMethod = {
  async login(ctx, args) {
    if (args.length > 1) throw new UsageError(`Too many arguments (expected 1, got ${args.length})`);
    let token = args[0] ?? '';
    if (token.startsWith('token=')) token = token.slice('token='.length);
    if (token === '-') token = (await kvSources(ctx.io.stdin).readStdin()).trim();
    else if (token === '') {
      token = (await askHidden(ctx.io, 'Token (will be hidden):', new UsageError('No token given: pass TOKEN, or - to read it from stdin'))).trim();
    }
    if (token === '') throw new UsageError('The token must not be empty');

    const client = new ApiClient({ ...clientFor(ctx).config, token });
    const answer = await client.secrets('GET', 'auth/token/lookup-self');
    const data = answer?.data ?? {};
    const policies = stringList(data.policies);
    const identityPolicies = stringList(data.identity_policies);
    // lookup-self answers in `data`; shape it like a login's `auth` so every method prints alike (as Vault).
    return {
      auth: {
        client_token: token,
        accessor: data.accessor ?? '',
        policies: [...new Set([...policies, ...identityPolicies])].sort(),
        token_policies: policies,
        identity_policies: identityPolicies,
        metadata: data.meta ?? null,
        lease_duration: Number(data.ttl ?? 0),
        renewable: data.renewable === true,
        entity_id: data.entity_id ?? '',
        token_type: data.type ?? 'service',
        orphan: data.orphan === true,
      },
    };
  },
};

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const SUCCESS = [
  'Success! You are now authenticated. The token information displayed below',
  'is already stored in the token helper. You do NOT need to run "svc login"',
  'again. Future requests will automatically use this token.',
  '',
].join('\n');

export default defineCommand({
  path: ['login'],
  synopsis: 'Authenticate locally',
  usage: 'svc login [options] [TOKEN | K=V...]',
  description:
    'Authenticates with the server and stores the resulting token in the token file (~/.svc-token, or ' +
    'SVC_TOKEN_FILE), mode 0600, where every later command finds it. With the default method, "token", ' +
    'the argument is an existing token (- reads it from stdin; with no argument on a terminal it is ' +
    'asked for without echo); it is checked with auth/token/lookup-self before it is stored. SVC_TOKEN ' +
    '(or VAULT_TOKEN, NOMAD_TOKEN), when set, takes precedence over the stored token.\n\n' +
    'With -method=cloud the arguments are K=V: role, type=iam|ec2 (default iam); for iam region and ' +
    'header_value (credentials from CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY or the instance role), for ec2 ' +
    'document=rsa2048|pkcs7|identity (pkcs7 and identity rely on SHA-1, which the server accepts only with ' +
    '-cloud-allow-sha1) and nonce (else the one kept in ~/.svc-cloud-nonce or SVC_CLOUD_NONCE_FILE; ' +
    'empty: no reauthentication).',
  examples: [
    { command: 'svc login svc.2ORv...', description: 'Log in with a token' },
    { command: 'echo "$TOKEN" | svc login -', description: 'Log in with a token from stdin' },
    { command: 'svc login -no-store -field=token_accessor svc.2ORv...', description: "Check a token and print its accessor, keeping the stored one" },
    { command: 'svc login -method=cloud -path=cloud-east type=ec2', description: 'Log in as this instance to the cloud method at auth/cloud-east' },
  ],
  exitCodes: { 0: 'logged in', 1: 'a usage or local error, such as an unwritable token file or no metadata service', 2: 'a server error, such as an invalid token' },
  family: 'secrets',
  flagSets: ['http', 'output', 'prompt'],
  flags: [
    { name: 'method', type: 'string', default: 'token', suggestions: Object.keys(LOGIN_METHODS), description: 'The auth method to log in with: token or cloud.' },
    { name: 'path', type: 'string', description: 'Mount path of the auth method, relative to auth/; the method name by default.', complete: 'mount' },
    { name: 'no-store', type: 'bool', description: 'Do not store the token in the token file.' },
    { name: 'token-only', type: 'bool', description: 'Print only the token and do not store it; the same as -field=token -no-store.' },
    { name: 'no-print', type: 'bool', description: 'Print nothing on success; only the exit code tells.' },
  ],
  args: [
    {
      name: 'args',
      description: 'The token, or - to read it from stdin; prompted for on a terminal when left out. K=V options for other methods.',
      variadic: true,
      pairs: { role: { complete: 'role' }, type: { choices: CLOUD_LOGIN_CHOICES.type }, document: { choices: CLOUD_LOGIN_CHOICES.document } },
    },
  ],
  async run(ctx) {
    const methodName = String(ctx.flags.method ?? 'token');
    const load = Object.hasOwn(LOGIN_METHODS, methodName) ? LOGIN_METHODS[methodName] : undefined;
    if (!load) {
      throw new UsageError(`Unknown auth method: ${methodName}. Known methods: ${Object.keys(LOGIN_METHODS).sort().join(', ')}`);
    }
    const mount = authMountName(String(ctx.flags.path || methodName));
    if (mount === '') throw new UsageError('-path must name the mount, such as -path=cloud');
    const secret = await (await load()).login(ctx, ctx.args, mount);
    const token = String(secret.auth.client_token ?? '');

    const tokenOnly = ctx.flags['token-only'] === true;
    const noStore = tokenOnly || ctx.flags['no-store'] === true;
    const field = tokenOnly ? 'token' : (ctx.flags.field as string | undefined);
    if (!noStore) {
      try {
        await writeTokenFile(ctx.env, token);
      } catch (err) {
        throw new UsageError(`Error storing token: ${(err as Error).message}`);
      }
      const tokenVariable = envSource(TOKEN_FLAG, ctx.env, 'secrets')?.name;
      if (tokenVariable) {
        ctx.io.err(
          `WARNING! The ${tokenVariable} environment variable is set! The value of this variable will take\n` +
            `precedence; if this is unwanted please unset ${tokenVariable} or update its value accordingly.\n`,
        );
      }
    } else if (!tokenOnly) {
      ctx.io.err('The token was not stored in the token file. Set the SVC_TOKEN environment variable or pass\nthe token below with each request.\n');
    }
    if (ctx.flags['no-print'] === true) return 0;

    const { renderSecret } = await import('../output/format.js');
    const format = ctx.flags.format as OutputFormat;
    if (!field && format === 'table') ctx.io.out(noStore ? 'Success! You are now authenticated.\n' : SUCCESS);
    await renderSecret(ctx.io, secret, { format, field });
    return 0;
  },
});
