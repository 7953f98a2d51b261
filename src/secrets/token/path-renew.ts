/** auth/token/renew, renew-self and renew-accessor: extend a token's lease within its limits. */
import { definePath, type PathDef } from '../framework/path.js';
import type { RenewSettings } from './token-service.js';
import type { SecretsContext } from '../context.js';
import type { SecretsRequest, SecretsResponse } from '../framework/request.js';
import { UserError } from '../../shared/errors.js';
import { TOKEN_RENEW_ACCESSOR_FIELDS, TOKEN_RENEW_FIELDS, TOKEN_RENEW_SELF_FIELDS } from './fields.js';
import type { TokenEntry } from './token-entry.js';
import { callerEntry } from './path-lookup.js';
import { readTokenRole } from './role-store.js';

/** The issuing auth method's re-check, for tokens of a method that has one (the token store's own have none). */
async function authMethodSettings(services: SecretsContext, entry: TokenEntry): Promise<RenewSettings | undefined> {
  const mount = services.mounts.byAccessor(entry.mountAccessor);
  const backend = mount && Object.hasOwn(services.authBackends, mount.type) ? services.authBackends[mount.type] : undefined;
  return backend?.renew?.(services, entry);
}

/** A token created against a role renews with the role's current period, as Vault's token store does; a deleted role renews none. */
function roleSettings(services: SecretsContext, entry: TokenEntry, roleName: string): RenewSettings {
  const role = readTokenRole(services.store, roleName);
  if (!role) throw new UserError(`original token role "${roleName}" could not be found, not renewing`);
  return { ttl: entry.ttl, maxTtl: entry.maxTtl, period: role.token_period };
}

/** `clientToken` is echoed in the auth block: '' when renewed by accessor, as Vault does. */
async function renew(req: SecretsRequest, entry: TokenEntry, clientToken: string, increment: number): Promise<SecretsResponse> {
  const tokens = req.services.tokens;
  if (entry.type === 'batch') throw new UserError('batch tokens cannot be renewed');
  let settings: RenewSettings | undefined;
  if (entry.renewable) settings = entry.role ? roleSettings(req.services, entry, entry.role) : await authMethodSettings(req.services, entry);
  const { entry: renewed, warnings } = await tokens.renew(entry, increment, settings);
  const identityPolicies = renewed.entityId ? req.services.identity.entityPolicies(renewed.entityId) : [];
  return { data: null, auth: tokens.authBlock(clientToken, renewed, identityPolicies), warnings };
}

export const renewPaths: PathDef[] = [
  definePath({
    pattern: 'renew-self',
    fields: TOKEN_RENEW_SELF_FIELDS,
    synopsis: 'Renew the calling token.',
    description: 'Renews the calling token. The default policy allows it.',
    operations: {
      update: {
        summary: 'Renew the calling token.',
        handler: async (req, data) => renew(req, callerEntry(req), req.clientToken ?? '', data.get<number>('increment')),
      },
    },
  }),
  definePath({
    pattern: 'renew-accessor',
    fields: TOKEN_RENEW_ACCESSOR_FIELDS,
    synopsis: 'Renew a token by its accessor.',
    description: 'Renews the token with this accessor; the answer does not include the token itself.',
    operations: {
      update: {
        summary: 'Renew a token by accessor.',
        handler: async (req, data) => {
          const entry = req.services.tokens.lookupByAccessor(data.get<string>('accessor'));
          if (!entry) throw new UserError('invalid accessor');
          return renew(req, entry, '', data.get<number>('increment'));
        },
      },
    },
  }),
  definePath({
    pattern: 'renew',
    fields: TOKEN_RENEW_FIELDS,
    synopsis: 'Renew a token.',
    description:
      'Renews the given token: its TTL becomes the increment (or its current TTL when none is given), capped ' +
      'by its max TTL from creation and its explicit max TTL. A periodic token gets its period again.',
    operations: {
      update: {
        summary: 'Renew a token.',
        handler: async (req, data) => {
          const token = data.get<string>('token');
          const entry = req.services.tokens.find(token);
          if (!entry) throw new UserError('token not found');
          return renew(req, entry, token, data.get<number>('increment'));
        },
      },
    },
  }),
];
