/**
 * Whether the principal that signed an iam login is one of the role's bound_iam_principal_arn, checked at
 * login and again at renewal. Exact ARNs match through the unique ID they were resolved to, so a
 * principal deleted and recreated under the same name no longer matches (unless the role turned
 * resolution off, then by canonical ARN). Wildcard ARNs match the principal's full ARN, path included,
 * which the token service never reports: it is looked up (GetUser or GetRole) and remembered by unique ID
 * for a week after its last use, and only while the configuration and role tables keep their indexes:
 * a provider configured anew may see other principals, and an operator who edits a role (say, after
 * moving a principal to another path) expects its principals looked up again, whichever server process
 * made the change.
 */
import { UserError } from '../../../../shared/errors.js';
import { LruCache } from '../../../../shared/lru-cache.js';
import type { SecretsContext } from '../../../context.js';
import type { CloudState } from '../cloud-state.js';
import { CONFIG_TABLE, ROLE_TABLE } from '../mount-storage.js';
import type { RoleEntry } from '../role-entry.js';
import { partitionRegion, type PrincipalArn } from './arn.js';

const FULL_ARN_TTL_MS = 7 * 24 * 3600 * 1000;
/** Principals remembered at most; the least recently seen go first. */
const MAX_FULL_ARNS = 10_000;

/** Full ARNs by `<accessor>/<unique ID>`, with the table indexes they were looked up under. */
export type FullArnMemory = LruCache<string, { arn: string; until: number; tables: string }>;

export const createFullArnMemory = (): FullArnMemory => new LruCache(MAX_FULL_ARNS);

export interface Principal {
  arn: PrincipalArn;
  canonicalArn: string;
  /** the caller's unique ID, without an assumed role's session */
  uniqueId: string;
}

/** Vault's GlobbedStringsMatch: '*' at the start, the end or both; a lone '*' is literal. */
export function globMatch(pattern: string, value: string): boolean {
  if (pattern.length < 2) return pattern === value;
  const head = pattern.startsWith('*');
  const tail = pattern.endsWith('*');
  if (head && tail) return value.includes(pattern.slice(1, -1));
  if (head) return value.endsWith(pattern.slice(1));
  if (tail) return value.startsWith(pattern.slice(0, -1));
  return value === pattern;
}

async function fullArnOf(state: CloudState, services: SecretsContext, accessor: string, p: Principal): Promise<string> {
  const { store } = services;
  const { fullArns } = state;
  const key = `${accessor}/${p.uniqueId}`;
  const tables = `${store.tableIndex(CONFIG_TABLE)}/${store.tableIndex(ROLE_TABLE)}`;
  const now = Date.now();
  const hit = fullArns.get(key);
  if (hit && hit.until > now && hit.tables === tables) {
    hit.until = now + FULL_ARN_TTL_MS;
    return hit.arn;
  }
  const iam = state.providers.get(services, accessor).identity(p.arn.accountId, partitionRegion(p.arn.partition));
  let arn: string;
  if (p.arn.type === 'user') arn = (await iam.getUser(p.arn.friendlyName)).arn;
  else if (p.arn.type === 'role' || p.arn.type === 'assumed-role') arn = (await iam.getRole(p.arn.friendlyName)).arn;
  else throw new Error(`a ${p.arn.type} cannot sign requests`);
  fullArns.set(key, { arn, until: now + FULL_ARN_TTL_MS, tables });
  return arn;
}

export async function principalIsBound(state: CloudState, services: SecretsContext, accessor: string, roleName: string, role: RoleEntry, p: Principal): Promise<boolean> {
  if (role.bound_iam_principal_id.includes(p.uniqueId)) return true;
  if (!role.resolve_cloud_unique_ids && role.bound_iam_principal_arn.includes(p.canonicalArn)) return true;
  const wildcards = role.bound_iam_principal_arn.filter((b) => b.endsWith('*'));
  if (wildcards.length === 0) return false;
  let full: string;
  try {
    full = await fullArnOf(state, services, accessor, p);
  } catch (err) {
    throw new UserError(`error looking up full ARN of entity ${p.canonicalArn} when attempting login for role "${roleName}": ${(err as Error).message}`);
  }
  return wildcards.some((b) => globMatch(b, full));
}
