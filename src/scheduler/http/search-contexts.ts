/**
 * The contexts of Nomad's prefix search that svc holds (Nomad's names: `deployment` is singular), what a
 * token needs to search each, and the IDs each matches. As Nomad does: jobs match by ID within the
 * request's namespace, namespaces by name (only those the token can reach), and the UUID contexts
 * (allocations, evaluations, deployments, nodes) only for a prefix that could start a UUID (at most 36
 * characters and 4 hyphens, hex otherwise, an odd digit left aside); for any other prefix such a context
 * is left out of the answer. With namespace `*`, each item counts only when the token may read jobs in its
 * namespace.
 */
import type { Acl } from '../../secrets/policy/acl.js';
import type { Store } from '../../storage/store.js';
import { ALLOC_IDS } from '../state/alloc-keys.js';
import { getAllocStub } from '../state/alloc-stubs.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { DEPLOYMENTS_TABLE } from '../state/deployments.js';
import { EVALS_TABLE } from '../state/evals.js';
import { listNamespaces, NAMESPACES_TABLE } from '../state/namespaces.js';
import { NODES_TABLE } from '../state/nodes.js';
import { scanKeys, scanTable } from '../state/scan.js';
import { JOBS_TABLE, jobKey } from '../state/tables.js';
import type { Deployment } from '../structs/deployment.js';
import type { Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';

export const SEARCH_CONTEXTS = ['allocs', 'deployment', 'evals', 'jobs', 'namespaces', 'nodes'] as const;
export type SearchContext = (typeof SEARCH_CONTEXTS)[number];

/** Matches per context, as Nomad's truncation limit. */
const TRUNCATE_LIMIT = 20;

interface ContextDef {
  /** the table whose index the answer's index follows */
  table: string;
  /** whether an ID in this context is a UUID (the prefix must be able to start one) */
  uuid: boolean;
  /** whether the token may search the context at all, in the request's namespace */
  allowed(acl: Acl, namespace: string): boolean;
  /** the IDs starting with `prefix` the token may see, in table order */
  ids(store: Store, namespace: string, prefix: string, acl: Acl): Iterable<string>;
}

const readsJobs = (acl: Acl, namespace: string) => acl.allowsNamespace(namespace, 'read-job');

/** Whether an item of namespace `of` is in the request's namespace `namespace` and readable there. */
export const visible = (acl: Acl, namespace: string, of: string): boolean => (namespace === '*' ? readsJobs(acl, of) : of === namespace);

function* namespaced<T extends { ID: string; Namespace: string }>(store: Store, table: string, namespace: string, prefix: string, acl: Acl): Generator<string> {
  for (const { value } of scanTable<T>(store, table, prefix)) if (visible(acl, namespace, value.Namespace)) yield value.ID;
}

const CONTEXTS: Record<SearchContext, ContextDef> = {
  jobs: {
    table: JOBS_TABLE,
    uuid: false,
    allowed: readsJobs,
    *ids(store, namespace, prefix, acl) {
      if (namespace !== '*') {
        for (const { value } of scanTable<Job>(store, JOBS_TABLE, jobKey(namespace, prefix))) yield value.ID;
        return;
      }
      for (const { value } of scanTable<Job>(store, JOBS_TABLE)) if (value.ID.startsWith(prefix) && readsJobs(acl, value.Namespace)) yield value.ID;
    },
  },
  evals: { table: EVALS_TABLE, uuid: true, allowed: readsJobs, ids: (store, ns, prefix, acl) => namespaced<Evaluation>(store, EVALS_TABLE, ns, prefix, acl) },
  deployment: { table: DEPLOYMENTS_TABLE, uuid: true, allowed: readsJobs, ids: (store, ns, prefix, acl) => namespaced<Deployment>(store, DEPLOYMENTS_TABLE, ns, prefix, acl) },
  allocs: {
    table: ALLOCS_TABLE,
    uuid: true,
    allowed: readsJobs,
    *ids(store, namespace, prefix, acl) {
      for (const id of scanKeys(store, ALLOC_IDS, prefix)) {
        const stub = getAllocStub(store, id);
        if (stub && visible(acl, namespace, stub.Namespace)) yield id;
      }
    },
  },
  nodes: { table: NODES_TABLE, uuid: true, allowed: (acl) => acl.allowsNode('read'), ids: (store, _ns, prefix) => scanKeys(store, NODES_TABLE, prefix) },
  namespaces: {
    table: NAMESPACES_TABLE,
    uuid: false,
    allowed: (acl, namespace) => acl.canAccessNamespace(namespace),
    *ids(store, _ns, prefix, acl) {
      for (const ns of listNamespaces(store)) if (ns.Name.startsWith(prefix) && acl.canAccessNamespace(ns.Name)) yield ns.Name;
    },
  },
};

/** Whether `prefix` could begin a UUID, as Nomad's UUID index accepts a prefix (odd trailing digit dropped). */
function uuidPrefix(prefix: string): boolean {
  if (prefix.length > 36 || (prefix.match(/-/g)?.length ?? 0) > 4) return false;
  const digits = prefix.replace(/-/g, '');
  return /^[0-9a-fA-F]*$/.test(digits.length % 2 === 0 ? digits : digits.slice(0, -1));
}

export const searchAllowed = (context: SearchContext, acl: Acl, namespace: string): boolean => CONTEXTS[context].allowed(acl, namespace);

export const searchTable = (context: SearchContext): string => CONTEXTS[context].table;

/** Up to TRUNCATE_LIMIT matches and whether there were more; undefined when the prefix cannot match in this context. */
export function searchContext(store: Store, context: SearchContext, namespace: string, prefix: string, acl: Acl): { matches: string[]; truncated: boolean } | undefined {
  const def = CONTEXTS[context];
  if (def.uuid && !uuidPrefix(prefix)) return undefined;
  const matches: string[] = [];
  for (const id of def.ids(store, namespace, prefix, acl)) {
    if (matches.length === TRUNCATE_LIMIT) return { matches, truncated: true };
    matches.push(id);
  }
  return { matches, truncated: false };
}
