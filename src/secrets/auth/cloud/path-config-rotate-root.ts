/**
 * auth/cloud/config/rotate-root: replaces the static access key stored in config/client with a new one
 * made by the provider, then deletes the old key, so that afterwards only the server knows the secret.
 * The calls are signed with the stored keys themselves (never the environment or metadata credentials:
 * those are not what gets rotated).
 */
import type { SecretsContext } from '../../context.js';
import { definePath } from '../../framework/path.js';
import { Conflict, InternalError, UserError } from '../../../shared/errors.js';
import { staticCredentials, regionFromEnv } from '../../../cloud/credentials.js';
import { CloudApiError } from '../../../cloud/errors.js';
import { identityClient, type CloudAccessKey, type IdentityClient } from '../../../cloud/identity.js';
import { providerClientConfig, readClientConfig, replaceStaticKeys } from './client-config.js';

/** The provider allows two access keys per user; a rotation needs the second slot free. */
function tooManyKeys(userName: string, configured: string, others: string[]): UserError {
  const which = others.length > 0 ? ` (${others.join(', ')})` : '';
  return new UserError(
    `cannot rotate: IAM user "${userName}" has more than one access key, and the provider allows only two, so no new key can be made; ` +
      `delete the key${others.length > 1 ? 's' : ''} other than ${configured}${which} first`,
  );
}

async function createKey(iam: IdentityClient, userName: string, configured: string): Promise<CloudAccessKey> {
  let others: string[] | undefined;
  try {
    others = (await iam.listAccessKeys(userName)).map((k) => k.accessKeyId).filter((id) => id !== configured);
  } catch (err) {
    // Vault never lists keys, so a policy written for it may lack iam:ListAccessKeys; CreateAccessKey still
    // reports the limit, only less precisely.
    if (!(err instanceof CloudApiError) || err.code !== 'AccessDenied') throw err;
  }
  if (others && others.length > 0) throw tooManyKeys(userName, configured, others);
  try {
    return await iam.createAccessKey(userName);
  } catch (err) {
    if (err instanceof CloudApiError && err.code === 'LimitExceeded') throw tooManyKeys(userName, configured, others ?? []);
    throw err;
  }
}

async function rotate(services: SecretsContext, accessor: string): Promise<string> {
  if (!readClientConfig(services, accessor)) throw new UserError("can't update client config because it's unset");
  const config = providerClientConfig(services, accessor);
  if (!config.access_key) throw new UserError("can't update access_key because it's unset");
  if (!config.secret_key) throw new UserError("can't update secret_key because it's unset");
  const oldKey = config.access_key;

  const iam = identityClient({
    credentials: staticCredentials({ accessKeyId: oldKey, secretAccessKey: config.secret_key }),
    endpoint: config.iam_endpoint,
    region: regionFromEnv(services.config.cloud.env),
    transport: { maxRetries: config.max_retries },
  });
  const user = await iam.getUser();
  const created = await createKey(iam, user.userName, oldKey);

  try {
    await replaceStaticKeys(services, accessor, oldKey, created.accessKeyId, created.secretAccessKey);
  } catch (err) {
    // Unstored, the new key would be a live credential nobody knows about.
    const cleanup = await iam.deleteAccessKey(created.accessKeyId, user.userName).then(
      () => '; the new key was deleted again',
      (e: unknown) => `; deleting the unstored new access key ${created.accessKeyId} also failed (${(e as Error).message}): delete it at the provider`,
    );
    if (err instanceof Conflict) throw new Conflict(`${err.message}${cleanup}`);
    throw new InternalError(`storing the new access key failed: ${(err as Error).message}${cleanup}`);
  }

  try {
    await iam.deleteAccessKey(oldKey, user.userName);
  } catch (err) {
    throw new InternalError(
      `the new access key ${created.accessKeyId} is stored and in use, but deleting the old access key ${oldKey} failed: ${(err as Error).message}; delete it at the provider`,
    );
  }
  return created.accessKeyId;
}

/**
 * The rotations running in this server, by mount accessor: one per mount at a time, since a second one
 * would find two keys and fail needlessly. Across server processes sharing the store the compare-and-set
 * in replaceStaticKeys keeps a rotation from overwriting another's key (the loser deletes its new key).
 */
export type Rotations = Map<string, Promise<unknown>>;

function oneAtATime<T>(byMount: Rotations, accessor: string, fn: () => Promise<T>): Promise<T> {
  const previous = byMount.get(accessor) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(fn);
  const settled = next.catch(() => undefined);
  byMount.set(accessor, settled);
  void settled.then(() => {
    if (byMount.get(accessor) === settled) byMount.delete(accessor);
  });
  return next;
}

/** The rotate-root path; `rotations` is the server's own. */
export const configRotateRootPaths = (rotations: Rotations) => [
  definePath({
    pattern: 'config/rotate-root',
    fields: {},
    synopsis: 'Replace the stored static access key with a new one only the server knows.',
    description:
      'Needs access_key and secret_key in config/client. With those keys the server asks the provider for ' +
      'its own user (iam:GetUser), lists its keys (iam:ListAccessKeys, optional), creates a new key ' +
      '(iam:CreateAccessKey), stores it, and deletes the old one (iam:DeleteAccessKey). The stored key must ' +
      'be the user\'s only access key. The provider may take a few seconds before the new key works everywhere.',
    operations: {
      update: {
        summary: 'Rotate the stored access key; answers the new access key ID.',
        handler: async (req) => ({ data: { access_key: await oneAtATime(rotations, req.mountAccessor, () => rotate(req.services, req.mountAccessor)) } }),
      },
    },
  }),
];
