/**
 * POST|PUT /v1/search and /v1/search/fuzzy (search-fuzzy.ts): Nomad's prefix search, which its CLI uses to resolve short IDs. The body is
 * `{Prefix, Context}` (decoded as Nomad does: any key casing, and the other fields Nomad's client sends
 * along, its query options, ignored); `Context` is one context (search-contexts.ts) or `all`. A named
 * context the token may not search is a 403; `all` searches those it may. The answer holds, per context
 * searched, at most 20 IDs (`null` when none, as Nomad writes an empty list) and whether there were more,
 * and the query meta Nomad embeds; its index is the latest of the searched contexts' tables. The fuzzy
 * search takes `{Text, Context}` alike; with namespace `*` it searches every context, each object counted
 * only when the token may read it, as Nomad does.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute, type SchedulerRequest } from './route.js';
import { SEARCH_CONTEXTS, searchAllowed, searchContext, searchTable, type SearchContext } from './search-contexts.js';
import { FUZZY_MIN_TERM_LENGTH, fuzzySearch } from './search-fuzzy.js';

/** A body field as Go's decoder finds it: the key matched without regard to case. */
function bodyString(body: Record<string, unknown>, name: string): string {
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? null : body[key];
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw new UserError(`field "${name}" must be a string`);
  return value;
}

const isSearchContext = (c: string): c is SearchContext => (SEARCH_CONTEXTS as readonly string[]).includes(c);

/**
 * The contexts a request searches: one named context (a 403 when the token may not search it), or with
 * `all` those it may. `everyContext`: all of them, the handler filtering each object (fuzzy search with
 * namespace `*`); nodes still need node read, which no namespace grants.
 */
function requestedContexts(req: SchedulerRequest, context: string, everyContext: boolean): SearchContext[] {
  const { acl } = req.caller;
  if (context !== 'all' && !isSearchContext(context)) {
    throw new UserError(`field "Context" must be one of ${SEARCH_CONTEXTS.join(', ')} or 'all' for all contexts; got ${JSON.stringify(context)}`);
  }
  const allowed = (c: SearchContext) => (everyContext && c !== 'nodes') || searchAllowed(c, acl, req.namespace);
  if (context !== 'all' && !allowed(context)) throw new PermissionDenied('Permission denied');
  return context === 'all' ? SEARCH_CONTEXTS.filter(allowed) : [context];
}

/** The query meta Nomad's search answers embed. */
function queryMeta(req: SchedulerRequest, index: number) {
  const { leadership } = req.services;
  return { Index: index, LastContact: leadership.lastContactMs(), KnownLeader: leadership.knownLeader(), NextToken: '' };
}

/**
 * A token that may search no context at all is refused before its body is read: it learns nothing, not
 * even what a well-formed search is (Nomad would answer it an empty search).
 */
function checkSearchesSomething(req: SchedulerRequest): void {
  if (!SEARCH_CONTEXTS.some((c) => searchAllowed(c, req.caller.acl, req.namespace))) throw new PermissionDenied('Permission denied');
}

const searchIndex = (req: SchedulerRequest, contexts: SearchContext[]) => Math.max(1, ...contexts.map((c) => req.services.store.tableIndex(searchTable(c))));

export const searchRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/search',
    // Each context is checked against the token below, as Nomad filters them.
    acl: { authenticated: true },
    blocking: true,
    allNamespaces: true,
    synopsis: 'Find the IDs starting with a prefix: jobs, allocations, evaluations, deployments, nodes and namespaces (at most 20 each).',
    handler: async (req) => {
      checkSearchesSomething(req);
      const body = bodyObject(req, 'object with Prefix and Context', true);
      const prefix = bodyString(body, 'Prefix');
      const contexts = requestedContexts(req, bodyString(body, 'Context'), false);
      const Matches: Record<string, string[] | null> = {};
      const Truncations: Record<string, boolean> = {};
      for (const c of contexts) {
        const found = searchContext(req.services.store, c, req.namespace, prefix, req.caller.acl);
        if (!found) continue;
        Matches[c] = found.matches.length === 0 ? null : found.matches;
        Truncations[c] = found.truncated;
      }
      const index = searchIndex(req, contexts);
      return { index, body: { Matches, Truncations, ...queryMeta(req, index) } };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/search/fuzzy',
    // Each context is checked against the token below, as Nomad filters them.
    acl: { authenticated: true },
    blocking: true,
    allNamespaces: true,
    synopsis: 'Find the names containing a text: jobs and their groups, tasks, services and commands, allocations, nodes, namespaces (and evaluations and deployments by ID prefix).',
    handler: async (req) => {
      checkSearchesSomething(req);
      const body = bodyObject(req, 'object with Text and Context', true);
      const text = bodyString(body, 'Text');
      const contexts = requestedContexts(req, bodyString(body, 'Context'), req.namespace === '*');
      if (text.length < FUZZY_MIN_TERM_LENGTH) throw new UserError(`field "Text": fuzzy search query must be at least ${FUZZY_MIN_TERM_LENGTH} characters, got ${text.length}`);
      const index = searchIndex(req, contexts);
      return { index, body: { ...fuzzySearch(req.services.store, contexts, req.namespace, text, req.caller.acl), ...queryMeta(req, index) } };
    },
  }),
];
