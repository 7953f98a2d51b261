/**
 * Nomad's fuzzy search (POST|PUT /v1/search/fuzzy) with its default limits: the text (at least 2
 * characters) is looked for, case-insensitively, anywhere in the names of jobs, their groups, tasks and
 * services, the commands of exec and raw_exec tasks, the images of docker tasks and the classes of java
 * tasks, allocation and node names, and namespace names; evaluations and deployments are matched by ID
 * prefix only, as Nomad does. Like Nomad, each context looks at its first 20 objects only (and says it
 * was truncated when there were more) and answers at most 100 matches, best first: the earliest match
 * position, then the shortest name, then the name's order. A match names the objects it lies in
 * (`Scope`: the namespace, job, group and task above it).
 */
import type { Acl } from '../../secrets/policy/acl.js';
import type { Store } from '../../storage/store.js';
import { ALLOC_IDS } from '../state/alloc-keys.js';
import { getAllocStub, type AllocStubRecord } from '../state/alloc-stubs.js';
import { listNamespaces } from '../state/namespaces.js';
import { NODES_TABLE } from '../state/nodes.js';
import { scanKeys, scanTable } from '../state/scan.js';
import { JOBS_TABLE, jobKey } from '../state/tables.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import { searchContext, visible, type SearchContext } from './search-contexts.js';

export const FUZZY_MIN_TERM_LENGTH = 2;
const LIMIT_QUERY = 20;
const LIMIT_RESULTS = 100;

interface FuzzyMatch {
  ID: string;
  Scope?: string[];
}

interface Scored {
  id: string;
  scope: string[] | undefined;
  score: number;
}

/** What a fuzzy search answers: matches per context (job parts under groups, tasks, services, commands, images, classes). */
interface FuzzyResult {
  Matches: Record<string, FuzzyMatch[]>;
  Truncations: Record<string, boolean>;
}

/** Where `text` (lower case) starts in `name`, ignoring case; -1 when it is not in it. */
const position = (name: string, text: string) => name.toLowerCase().indexOf(text);

const DRIVER_FIELD: Record<string, [context: string, key: string]> = { docker: ['images', 'image'], exec: ['commands', 'command'], raw_exec: ['commands', 'command'], java: ['classes', 'class'] };

/** Every part of a job the text is found in, by context. */
function jobParts(job: Job, add: (context: string, name: string, scope: string[]) => void): void {
  const ns = job.Namespace;
  add('jobs', job.Name, [ns, job.ID]);
  for (const group of job.TaskGroups ?? []) {
    add('groups', group.Name, [ns, job.ID]);
    for (const service of group.Services ?? []) add('services', service.Name, [ns, job.ID, group.Name]);
    for (const task of group.Tasks ?? []) {
      add('tasks', task.Name, [ns, job.ID, group.Name]);
      for (const service of task.Services ?? []) add('services', service.Name, [ns, job.ID, group.Name, task.Name]);
      const field = DRIVER_FIELD[task.Driver];
      const value = field ? task.Config?.[field[1]] : undefined;
      if (field && typeof value === 'string') add(field[0], value, [ns, job.ID, group.Name, task.Name]);
    }
  }
}

/** The first LIMIT_QUERY items of `source`, and whether it had more. */
function firstItems<T>(source: Iterable<T>): { items: T[]; more: boolean } {
  const items: T[] = [];
  for (const item of source) {
    if (items.length === LIMIT_QUERY) return { items, more: true };
    items.push(item);
  }
  return { items, more: false };
}

function* visibleJobs(store: Store, namespace: string, acl: Acl): Generator<Job> {
  for (const { value } of scanTable<Job>(store, JOBS_TABLE, namespace === '*' ? '' : jobKey(namespace, ''))) if (visible(acl, namespace, value.Namespace)) yield value;
}

function* visibleAllocs(store: Store, namespace: string, acl: Acl): Generator<AllocStubRecord> {
  for (const id of scanKeys(store, ALLOC_IDS)) {
    const stub = getAllocStub(store, id);
    if (stub && visible(acl, namespace, stub.Namespace)) yield stub;
  }
}

/**
 * Searches `contexts` (already narrowed to those the token may search). Contexts matched by name are
 * always in Truncations; in Matches only with a match. Those matched by ID prefix are in both.
 */
export function fuzzySearch(store: Store, contexts: readonly SearchContext[], namespace: string, text: string, acl: Acl): FuzzyResult {
  const lower = text.toLowerCase();
  const found = new Map<string, Scored[]>();
  const Truncations: Record<string, boolean> = {};
  const Matches: Record<string, FuzzyMatch[]> = {};
  const add = (context: string, name: string, scope: string[] | undefined) => {
    const score = position(name, lower);
    if (score < 0) return;
    const list = found.get(context) ?? [];
    if (list.length === LIMIT_RESULTS) {
      Truncations[context] = true;
      return;
    }
    list.push({ id: name, scope, score });
    found.set(context, list);
  };
  /** Runs `visit` over the first objects of a context, marking it (and what its objects matched in) truncated when there were more. */
  const scan = <T>(context: string, source: Iterable<T>, visit: (item: T) => void) => {
    Truncations[context] = false;
    const { items, more } = firstItems(source);
    const before = new Set(found.keys());
    for (const item of items) visit(item);
    if (more) for (const c of [context, ...[...found.keys()].filter((k) => !before.has(k))]) Truncations[c] = true;
  };
  for (const context of contexts) {
    switch (context) {
      case 'jobs':
        scan('jobs', visibleJobs(store, namespace, acl), (job) => jobParts(job, add));
        break;
      case 'allocs':
        scan('allocs', visibleAllocs(store, namespace, acl), (a) => add('allocs', a.Name, [a.Namespace, a.ID]));
        break;
      case 'nodes':
        scan('nodes', scanTable<Node>(store, NODES_TABLE), ({ value: n }) => add('nodes', n.Name, [n.ID]));
        break;
      case 'namespaces':
        scan('namespaces', listNamespaces(store).filter((ns) => acl.canAccessNamespace(ns.Name)), (ns) => add('namespaces', ns.Name, undefined));
        break;
      case 'evals':
      case 'deployment': {
        const byPrefix = searchContext(store, context, namespace, text, acl);
        if (!byPrefix) break;
        Matches[context] = byPrefix.matches.map((id) => ({ ID: id }));
        Truncations[context] = byPrefix.truncated;
        break;
      }
    }
  }
  for (const [context, list] of found) {
    list.sort((a, b) => a.score - b.score || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    Matches[context] = list.map((m) => (m.scope ? { ID: m.id, Scope: m.scope } : { ID: m.id }));
  }
  return { Matches, Truncations };
}
