/**
 * What `svc __complete KIND PREFIX` prints: the values of one kind the server knows, each kind listed
 * with one API call. Scheduler listings use the client's namespace (-namespace or SVC_NAMESPACE, `*` for
 * every namespace); the cloud mount's listings use the mount -path names.
 */
import type { ApiClient } from '../api/http/client.js';
import { clientFor } from './client-from-flags.js';
import type { CommandContext } from './define.js';
import { mountPrefix } from './auth-mount.js';
import type { ServerKind } from '../shared/completion-kinds.js';
import { listNames, secretsPaths } from './complete-secrets-paths.js';

interface Lookup {
  client: ApiClient;
  ctx: CommandContext;
  prefix: string;
  signal: AbortSignal;
}

type Resolver = (q: Lookup) => Promise<string[]>;

/** A scheduler listing that filters by `prefix` on the server, as Nomad's list endpoints do. */
const schedulerList =
  (path: string, key: 'ID' | 'Name'): Resolver =>
  async ({ client, prefix, signal }) => {
    const { body } = await client.scheduler<Array<Record<string, unknown>>>('GET', path, { query: { prefix }, signal });
    return (body ?? []).map((item) => String(item[key]));
  };

/**
 * A listing of UUIDs whose prefix the server takes only as an even number of lowercase hex digits: an odd
 * last digit is left to the final filter, and anything else cannot match an ID.
 */
const hexIdList =
  (path: string): Resolver =>
  async ({ client, prefix, signal }) => {
    if (!/^[0-9a-f-]*$/.test(prefix)) return [];
    const digits = prefix.replace(/-/g, '');
    const even = digits.slice(0, digits.length - (digits.length % 2));
    const { body } = await client.scheduler<Array<{ ID: string }>>('GET', path, { query: { prefix: even }, signal });
    return (body ?? []).map((item) => item.ID);
  };

const listKeys = ({ client, signal }: Lookup, path: string): Promise<string[]> => listNames(client, path, signal);

const secretsList =
  (path: string): Resolver =>
  (q) =>
    listKeys(q, path);

/** A listing under the cloud mount `-path` names (auth/cloud/ by default). */
const mountList =
  (rel: string): Resolver =>
  (q) =>
    listKeys(q, `${mountPrefix(q.ctx.flags)}${rel}`);

/** The auth mounts (sys/auth), keyed by path relative to auth/ with a trailing slash. */
async function authMounts({ client, signal }: Lookup): Promise<Array<[string, { type?: string; accessor?: string }]>> {
  const answer = await client.secrets('GET', 'sys/auth', { signal });
  return Object.entries((answer?.data ?? {}) as Record<string, { type?: string; accessor?: string }>);
}

const RESOLVERS: Record<ServerKind, Resolver> = {
  async policy(q) {
    // sys/policies/acl is the current listing; sys/policy the older one some servers keep.
    try {
      return await listKeys(q, 'sys/policies/acl');
    } catch {
      return listKeys(q, 'sys/policy');
    }
  },
  namespace: schedulerList('/v1/namespaces', 'Name'),
  job: schedulerList('/v1/jobs', 'ID'),
  node: schedulerList('/v1/nodes', 'ID'),
  alloc: hexIdList('/v1/allocations'),
  eval: hexIdList('/v1/evaluations'),
  deployment: hexIdList('/v1/deployments'),
  async service({ client, signal }) {
    // The listing has no prefix filter: it is one entry per namespace, each with its service names.
    const { body } = await client.scheduler<Array<{ Services: Array<{ ServiceName: string }> }>>('GET', '/v1/services', { signal });
    return (body ?? []).flatMap((ns) => ns.Services.map((s) => s.ServiceName));
  },
  mount: async (q) => (await authMounts(q)).map(([path]) => path.replace(/\/$/, '')),
  'cloud-mount': async (q) => (await authMounts(q)).filter(([, m]) => m.type === 'cloud').map(([path]) => path.replace(/\/$/, '')),
  accessor: async (q) => (await authMounts(q)).map(([, m]) => String(m.accessor ?? '')).filter(Boolean),
  entity: secretsList('identity/entity/id'),
  'entity-name': secretsList('identity/entity/name'),
  'entity-alias': secretsList('identity/entity-alias/id'),
  role: mountList('role'),
  certificate: mountList('config/certificates'),
  'sts-account': mountList('config/sts'),
  denylist: mountList('roletag-denylist'),
  accesslist: mountList('identity-accesslist'),
  'secrets-path': ({ client, prefix, signal }) => secretsPaths(client, prefix, signal),
};

/** The values of `kind` that start with `prefix`, sorted, each once; none for a kind nobody declared. */
export async function completeValues(ctx: CommandContext, kind: string, prefix: string, signal: AbortSignal): Promise<string[]> {
  if (!Object.hasOwn(RESOLVERS, kind)) return [];
  const values = await RESOLVERS[kind as ServerKind]({ client: clientFor(ctx), ctx, prefix, signal });
  return [...new Set(values.filter((v) => v.startsWith(prefix)))].sort();
}
