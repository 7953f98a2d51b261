/**
 * `svc login -method=cloud`: logs in to the cloud auth method (POST auth/<mount>/login) with proof taken
 * from where the CLI runs. type=iam (the default, as Vault's aws method) sends a signed GetCallerIdentity
 * request; type=ec2 sends the instance identity document as the metadata service signed it, and keeps
 * the nonce the server hands out for the instance's later logins. A spinner shows while the metadata
 * service and the server are waited for (on a terminal; src/cli/spinner.ts).
 */
import { ApiClient, type SecretsEnvelope } from '../../api/http/client.js';
import { isRegionName } from '../../cloud/endpoints.js';
import { metadataClient, type IdentityDocument, type MetadataClient } from '../../cloud/metadata.js';
import { UsageError } from '../../shared/errors.js';
import { clientFor } from '../client-from-flags.js';
import type { CommandContext } from '../define.js';
import { kvSources, parseKvArgs } from '../kv-args.js';
import type { LoginMethod } from '../commands/login.js';
import { callerIdentityRequest, iamLoginFields, loginCredentials } from './cloud-iam-request.js';
import { nonceFilePath, nonceKey, readNonce, storeNonce } from './nonce-file.js';
import { withSpinner } from '../spinner.js';
import { CLOUD_LOGIN_CHOICES as CHOICES } from '../cloud-login-choices.js';

const IAM_ONLY = ['region', 'header_value'];
const EC2_ONLY = ['nonce', 'document'];
const KNOWN = ['role', 'type', ...IAM_ONLY, ...EC2_ONLY];

interface Options {
  role?: string;
  type: (typeof CHOICES.type)[number];
  region?: string;
  header_value?: string;
  nonce?: string;
  document: (typeof CHOICES.document)[number];
}

/** K=V arguments as every other command reads them (k=@file, k=-); every key once, every value checked. */
async function parseOptions(ctx: CommandContext, args: string[]): Promise<Options> {
  const kv = await parseKvArgs(args, kvSources(ctx.io.stdin));
  const unknown = Object.keys(kv).filter((k) => !KNOWN.includes(k));
  if (unknown.length > 0) throw new UsageError(`Unknown argument${unknown.length > 1 ? 's' : ''} for -method=cloud: ${unknown.join(', ')}. Known: ${KNOWN.join(', ')}`);
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(kv)) {
    if (typeof v !== 'string') throw new UsageError(`${k} must be given once, as a string`);
    values[k] = v;
  }
  const type = values.type ?? 'iam';
  const document = values.document ?? 'rsa2048';
  for (const [key, value] of [['type', type], ['document', document]] as const) {
    if (!(CHOICES[key] as readonly string[]).includes(value)) throw new UsageError(`${key} must be one of ${CHOICES[key].join(', ')}, not "${value}"`);
  }
  const misplaced = Object.keys(values).filter((k) => (type === 'iam' ? EC2_ONLY : IAM_ONLY).includes(k));
  if (misplaced.length > 0) throw new UsageError(`${misplaced.join(', ')} cannot be used with type=${type}`);
  const region = values.region ?? ctx.env.CLOUD_REGION;
  if (type === 'iam' && region !== undefined && !isRegionName(region)) {
    throw new UsageError(`"${region}" is not a region name, such as us-east-1 (from ${values.region === undefined ? 'CLOUD_REGION' : 'region='})`);
  }
  return {
    role: values.role || undefined,
    type: type as Options['type'],
    region,
    header_value: values.header_value,
    nonce: values.nonce,
    document: document as Options['document'],
  };
}

/** Metadata-service failures are local ones: say which service was asked, so a wrong endpoint is obvious. */
async function fromMetadata<T>(md: MetadataClient, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw new Error(`Error reading the ${what} from the metadata service at ${md.endpoint} (set CLOUD_METADATA_ENDPOINT to use another): ${(err as Error).message}`);
  }
}

/**
 * The identity proof of the current instance, and its instance ID (the nonce's key). One call after the
 * other: the first one gets the metadata session token that the others reuse.
 */
async function ec2Proof(md: MetadataClient, document: Options['document']): Promise<{ fields: Record<string, string>; instanceId: string }> {
  const noNewlines = (s: string) => s.replace(/[\r\n]/g, '');
  const { raw, instanceId } = await fromMetadata(md, 'instance identity document', async () => {
    const bytes = await md.identityDocumentRaw();
    const doc = JSON.parse(bytes.toString('utf8')) as Partial<IdentityDocument> | null;
    if (typeof doc?.instanceId !== 'string' || doc.instanceId === '') throw new Error('the document has no instanceId');
    return { raw: bytes, instanceId: doc.instanceId };
  });
  if (document === 'identity') {
    const signature = await fromMetadata(md, 'identity document signature', () => md.signature());
    return { fields: { identity: raw.toString('base64'), signature: noNewlines(signature) }, instanceId };
  }
  const pkcs7 = await fromMetadata(md, `${document} identity document`, () => (document === 'pkcs7' ? md.pkcs7() : md.rsa2048()));
  return { fields: { pkcs7: noNewlines(pkcs7) }, instanceId };
}

export const cloudMethod: LoginMethod = {
  async login(ctx, args, mount) {
    const opts = await parseOptions(ctx, args);
    const config = clientFor(ctx).config;
    // A login needs no token, and the server that checks the proof should not see an unrelated one.
    const client = new ApiClient({ ...config, token: undefined });
    let metadata: MetadataClient | undefined;
    const md = () => (metadata ??= metadataClient({ endpoint: ctx.env.CLOUD_METADATA_ENDPOINT }));
    const loginPath = `auth/${mount}/login`;
    const role = opts.role === undefined ? {} : { role: opts.role };
    const loggingIn = `Logging in to auth/${mount}`;

    if (opts.type === 'iam') {
      return withSpinner(ctx.io, 'Reading the credentials', async (spinner) => {
        const creds = await loginCredentials(ctx.env, md);
        const request = callerIdentityRequest(creds, { region: opts.region ?? 'us-east-1', serverId: opts.header_value });
        spinner.update(loggingIn);
        return withAuth(await client.secrets('POST', loginPath, { body: { ...role, ...iamLoginFields(request) } }));
      });
    }

    const file = nonceFilePath(ctx.env);
    const { answer, nonce, key, instanceId } = await withSpinner(ctx.io, 'Reading the instance identity from the metadata service', async (spinner) => {
      const { fields, instanceId } = await ec2Proof(md(), opts.document);
      const key = nonceKey(config.address, mount, instanceId);
      // Read before logging in: a corrupted file must stop us before a first login consumes the server's nonce.
      const nonce = opts.nonce ?? (await readNonce(file, key));
      spinner.update(loggingIn);
      const answer = withAuth(await client.secrets('POST', loginPath, { body: { ...role, ...fields, ...(nonce === undefined ? {} : { nonce }) } }));
      return { answer, nonce, key, instanceId };
    });
    const issued = (answer.auth.metadata as Record<string, unknown> | null | undefined)?.nonce;
    if (nonce === undefined && typeof issued === 'string' && issued !== '') {
      try {
        await storeNonce(file, key, issued);
      } catch (err) {
        // The token is valid and worth keeping; only the next login needs the nonce, shown in the output.
        ctx.io.err(`WARNING! ${(err as Error).message}\nThe next login of instance ${instanceId} needs nonce= set to the metadata nonce of this login.\n`);
      }
    }
    return answer;
  },
};

function withAuth(answer: SecretsEnvelope | undefined): SecretsEnvelope & { auth: Record<string, unknown> } {
  if (!answer?.auth) throw new Error('The server answered the login without a token');
  return answer as SecretsEnvelope & { auth: Record<string, unknown> };
}
