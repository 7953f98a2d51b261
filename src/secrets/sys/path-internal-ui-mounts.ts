/**
 * sys/internal/ui/mounts, as Vault's: how a client finds the mount a path is under and its KV version
 * before it builds the API path (Vault's `kv` commands, consul-template, `svc kv`; the newer Vault CLI
 * asks sys/mounts-all/<path>, answered the same). The paths need no
 * capability of their own: a token learns of a mount when it may do something under it (Acl.reachesMount),
 * so a token with only `read` on secret/data/app/* can find secret/ without `read` on sys/mounts.
 *
 * The one-mount read answers a path under no mount exactly as a mount the token cannot reach, a 403, so
 * the endpoint cannot be used to discover which mounts exist. The listing with no token answers only
 * the mounts (engines and auth methods) with listing_visibility "unauth", with their type, description
 * and options.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import type { SecretsContext } from '../context.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest, SecretsResponse } from '../framework/request.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { Acl } from '../policy/acl.js';
import { authMountInfo, secretMountInfo } from './mount-info.js';

const AUTH_PREFIX = 'auth/';

const PATH_FIELD: Fields = {
  path: { type: 'string', description: 'A path under a mount, such as "secret/app/db"; the answer is the mount it is under.' },
};

interface FoundMount {
  /** the mount's full path, under which the ACL is consulted: secret/, auth/token/ */
  fullPath: string;
  /** the path Vault answers: relative to its table, so an auth mount's without auth/ */
  path: string;
  info: Record<string, unknown>;
}

/** The mount serving `path` (with its trailing slash), an engine's (sys/ and identity/ included) or an auth method's. */
function mountServing(services: SecretsContext, path: string): FoundMount | undefined {
  if (path.startsWith(AUTH_PREFIX)) {
    const auth = services.mounts.route(path);
    return auth && { fullPath: auth.path, path: auth.path.slice(AUTH_PREFIX.length), info: authMountInfo(auth, services.version) };
  }
  let best;
  for (const m of services.secretMounts.list()) if (path.startsWith(m.path) && (!best || m.path.length > best.path.length)) best = m;
  return best && { fullPath: best.path, path: best.path, info: secretMountInfo(best, services.version) };
}

/** What a caller without a token sees of a mount it may list: Vault's three fields. */
function unauthenticatedInfo(m: { type: string; description: string; options: Record<string, string> | null }): Record<string, unknown> {
  return { type: m.type, description: m.description, options: m.options };
}

function visibleMounts(services: SecretsContext, acl: Acl | undefined): { secret: Record<string, unknown>; auth: Record<string, unknown> } {
  const secret: Record<string, unknown> = {};
  const auth: Record<string, unknown> = {};
  for (const m of services.secretMounts.list()) {
    if (m.config.listingVisibility === 'unauth') secret[m.path] = acl ? secretMountInfo(m, services.version) : unauthenticatedInfo(m);
    else if (acl?.reachesMount(m.path)) secret[m.path] = secretMountInfo(m, services.version);
  }
  for (const m of services.mounts.list()) {
    const key = m.path.slice(AUTH_PREFIX.length);
    if (m.config.listingVisibility === 'unauth') auth[key] = acl ? authMountInfo(m, services.version) : unauthenticatedInfo(m);
    else if (acl?.reachesMount(m.path)) auth[key] = authMountInfo(m, services.version);
  }
  return { secret, auth };
}

async function readMountOf(req: SecretsRequest, data: FieldData): Promise<SecretsResponse> {
  const raw = data.get<string>('path').replace(/^\/+/, '');
  if (raw === '') throw new UserError('path not set');
  const path = raw.endsWith('/') ? raw : `${raw}/`;
  // Vault's wording, which its clients show as is.
  const refused = new PermissionDenied(`preflight capability check returned 403, please ensure client's policies grant access to path "${path}"`);
  const acl = req.caller?.acl;
  if (!acl) throw refused;
  const found = mountServing(req.services, path);
  if (!found || !acl.reachesMount(found.fullPath)) throw refused;
  return { data: { ...found.info, path: found.path } };
}

export const internalUiMountsPaths = [
  definePath({
    pattern: 'internal/ui/mounts',
    fields: {},
    unauthenticated: true,
    synopsis: 'List the mounts the token can reach.',
    description:
      'Answers "secret" (the secrets engines) and "auth" (the auth methods), each keyed by mount path, ' +
      'limited to the mounts under which the token has some capability, and those with listing_visibility ' +
      '"unauth". Without a token, only the latter are listed, with their type, description and options.',
    operations: {
      read: {
        summary: 'List the mounts the token can reach.',
        handler: async (req) => ({ data: visibleMounts(req.services, req.caller?.acl) }),
      },
    },
  }),
  definePath({
    pattern: 'internal/ui/mounts/*path',
    fields: PATH_FIELD,
    unauthenticated: true,
    synopsis: 'Find the mount a path is under.',
    description:
      'Answers the mount serving <path> as sys/mounts describes it, plus its "path" (e.g. "secret/"), ' +
      'so a client learns the KV version from options.version. Needs a token with some capability ' +
      'under that mount; a path under no mount is refused the same way, with a 403.',
    operations: { read: { summary: 'Read the mount a path is under.', handler: readMountOf } },
  }),
  definePath({
    pattern: 'mounts-all/*path',
    fields: PATH_FIELD,
    unauthenticated: true,
    synopsis: 'Find the mount a path is under (the newer Vault CLI\'s preflight path).',
    description: 'The same answer, under the same rules, as sys/internal/ui/mounts/<path>.',
    operations: { read: { summary: 'Read the mount a path is under.', handler: readMountOf } },
  }),
];
