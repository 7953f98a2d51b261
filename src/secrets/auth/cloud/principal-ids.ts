/**
 * Unique IDs of the principals bound by ARN. A role bound by unique ID stops matching once its principal
 * is deleted, even if one of the same name is created later; the ID is looked up (GetUser, GetRole,
 * GetInstanceProfile) with credentials for the ARN's own account, so a config/sts role of a satellite
 * account is used for that account's principals.
 */
import { CloudAccountError, CloudApiError, CloudCredentialsError } from '../../../cloud/errors.js';
import type { CloudProvider } from '../../../cloud/provider.js';
import { UserError } from '../../../shared/errors.js';
import { parseArn, partitionRegion } from './login/arn.js';

async function uniqueIdOf(provider: CloudProvider, arn: string): Promise<string> {
  const entity = parseArn(arn);
  // IAM is global per partition: any region of the ARN's partition finds its endpoint.
  const iam = provider.identity(entity.accountId, partitionRegion(entity.partition));
  let id: string;
  switch (entity.type) {
    case 'user':
      id = (await iam.getUser(entity.friendlyName)).userId;
      break;
    case 'role':
      id = (await iam.getRole(entity.friendlyName)).roleId;
      break;
    case 'instance-profile':
      id = (await iam.getInstanceProfile(entity.friendlyName)).instanceProfileId;
      break;
    default:
      throw new UserError(
        `a principal of type "${entity.type}" has no unique ID to resolve; bind arn:${entity.partition}:iam::${entity.accountId}:role/${entity.friendlyName} instead`,
      );
  }
  if (id === '') throw new UserError(`the provider returned no unique ID for ${entity.type} "${entity.friendlyName}"`);
  return id;
}

/** Failures that say something about the ARN or the provider, as opposed to a fault of ours (a 500). */
const isResolutionFailure = (err: unknown): err is Error =>
  err instanceof UserError || err instanceof CloudApiError || err instanceof CloudAccountError || err instanceof CloudCredentialsError;

/**
 * The unique IDs of the ARNs without a trailing "*", in order (wildcards match by name at login). The first
 * ARN that does not resolve fails the whole request with a 400 quoting it, as Vault does.
 */
export async function resolvePrincipalIds(provider: CloudProvider, arns: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const arn of arns) {
    if (arn.endsWith('*')) continue;
    try {
      ids.push(await uniqueIdOf(provider, arn));
    } catch (err) {
      if (!isResolutionFailure(err)) throw err;
      throw new UserError(`unable to resolve ARN ${JSON.stringify(arn)} to internal ID: ${err.message}`);
    }
  }
  return ids;
}
