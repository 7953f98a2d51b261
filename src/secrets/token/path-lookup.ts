/** auth/token/lookup, lookup-self and lookup-accessor: a token's properties, in Vault's key set. */
import { definePath, type PathDef } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { TOKEN_ACCESSOR_FIELDS, TOKEN_LOOKUP_FIELDS, TOKEN_LOOKUP_SELF_FIELDS } from './fields.js';
import type { TokenEntry } from './token-entry.js';

const rfc3339 = (ms: number): string => new Date(ms).toISOString();

/**
 * The entry's issue and expiry times as text, made once per entry: the caller a token makes is kept
 * between requests, and with it the entry, which is never changed in place (a renewal stores a new one).
 */
const entryTimes = new WeakMap<TokenEntry, { issue: string; expire: string | null }>();

function timesOf(entry: TokenEntry): { issue: string; expire: string | null } {
  let times = entryTimes.get(entry);
  if (!times) entryTimes.set(entry, (times = { issue: rfc3339(entry.creationTime * 1000), expire: entry.expireTime === 0 ? null : rfc3339(entry.expireTime) }));
  return times;
}

/**
 * The lookup answer. `id` is the secret the caller gave, or '' when looked up by accessor: the store only
 * has the hash.
 */
export function lookupData(req: SecretsRequest, entry: TokenEntry, id: string): Record<string, unknown> {
  const times = timesOf(entry);
  const data: Record<string, unknown> = {
    accessor: entry.accessor,
    creation_time: entry.creationTime,
    creation_ttl: entry.creationTtl,
    display_name: entry.displayName,
    entity_id: entry.entityId,
    expire_time: times.expire,
    explicit_max_ttl: entry.explicitMaxTtl,
    id,
    issue_time: times.issue,
    meta: Object.keys(entry.meta).length === 0 ? null : entry.meta,
    num_uses: entry.numUses,
    orphan: entry.orphan,
    path: entry.path,
    policies: entry.policies,
    renewable: entry.renewable,
    ttl: entry.expireTime === 0 ? 0 : Math.max(0, Math.round((entry.expireTime - Date.now()) / 1000)),
    type: entry.type,
  };
  if (entry.role) data.role = entry.role;
  if (entry.period !== 0) data.period = entry.period;
  if (entry.boundCidrs.length > 0) data.bound_cidrs = entry.boundCidrs;
  if (entry.lastRenewalTime !== 0) {
    data.last_renewal_time = entry.lastRenewalTime;
    data.last_renewal = rfc3339(entry.lastRenewalTime * 1000);
  }
  if (entry.entityId) {
    const identityPolicies = req.services.identity.entityPolicies(entry.entityId);
    if (identityPolicies.length > 0) data.identity_policies = identityPolicies;
  }
  return data;
}

/**
 * The caller's own entry with this request's use counted. A token of unlimited uses is as this request
 * resolved it; a limited one is read again, and on its last use it is gone, so the resolved copy answers
 * with no uses left.
 */
export function callerEntry(req: SecretsRequest): TokenEntry {
  const caller = req.caller;
  if (!caller) throw new PermissionDenied();
  if (caller.token.numUses === 0) return caller.token;
  return req.services.tokens.getById(caller.token.id) ?? { ...caller.token, numUses: 0 };
}

const lookupSelf = async (req: SecretsRequest) => ({ data: lookupData(req, callerEntry(req), req.clientToken ?? '') });

export const lookupPaths: PathDef[] = [
  definePath({
    pattern: 'lookup-self',
    fields: TOKEN_LOOKUP_SELF_FIELDS,
    synopsis: 'Look up the calling token.',
    description: "Answers the calling token's properties. The default policy allows it.",
    operations: {
      read: { summary: 'Look up the calling token.', handler: lookupSelf },
      update: { summary: 'Look up the calling token.', handler: lookupSelf },
    },
  }),
  definePath({
    pattern: 'lookup-accessor',
    fields: TOKEN_ACCESSOR_FIELDS,
    synopsis: 'Look up a token by its accessor.',
    description: "Answers the properties of the token with this accessor; its id is not shown, as only the token's holder has it.",
    operations: {
      update: {
        summary: 'Look up a token by accessor.',
        handler: async (req, data) => {
          const entry = req.services.tokens.lookupByAccessor(data.get<string>('accessor'));
          if (!entry) throw new UserError('invalid accessor');
          return { data: lookupData(req, entry, '') };
        },
      },
    },
  }),
  definePath({
    pattern: 'lookup',
    fields: TOKEN_LOOKUP_FIELDS,
    synopsis: 'Look up a token.',
    description: 'Answers the properties of the given token, or of the calling token when none is given.',
    operations: {
      read: { summary: 'Look up a token.', handler: async (req, data) => lookupOther(req, data.get<string>('token')) },
      update: { summary: 'Look up a token.', handler: async (req, data) => lookupOther(req, data.get<string>('token')) },
    },
  }),
];

async function lookupOther(req: SecretsRequest, token: string) {
  if (token === '') return { data: lookupData(req, callerEntry(req), req.clientToken ?? '') };
  const entry = req.services.tokens.find(token);
  // Vault answers an unknown token here with "bad token" and a 403.
  if (!entry) throw new PermissionDenied('bad token');
  return { data: lookupData(req, entry, token) };
}
