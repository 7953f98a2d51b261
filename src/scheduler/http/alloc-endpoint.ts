/**
 * /v1/allocations, /v1/allocation/:alloc_id and its stop, and the client lifecycle calls (signal,
 * restart) that the server forwards to the node running the allocation.
 */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { compileFilter } from '../filter/index.js';
import type { Store } from '../../storage/store.js';
import { ALLOCS_TABLE, allocsByCreate, getAlloc } from '../state/allocs.js';
import { stubsOf } from '../state/alloc-listing.js';
import { allocIdsByPrefix, stubsByCreate, type AllocStubRecord } from '../state/alloc-stubs.js';
import { stopAlloc } from '../state/client-updates.js';
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import { allocFull, allocStub, jobCache, jobTypeCache } from './alloc-view.js';
import { forEachYielding, streamedList } from './json-stream.js';
import { compareCreateIndexTokens, validateHexPrefix } from './paging.js';
import { defineRoute, type SchedulerRequest } from './route.js';
import type { Caller } from './caller.js';
import type { NodeControl } from '../wire/node-control.js';
import type { SchedulerContext } from '../context.js';
import { UUID } from '../../shared/ids.js';


/** A hex prefix (dashes optional) in the dashed form IDs are stored in: `abcdef0123` → `abcdef01-23`. */
export function dashedPrefix(hex: string): string {
  const digits = hex.replace(/-/g, '');
  const cuts = [8, 12, 16, 20];
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (cuts.includes(i)) out += '-';
    out += digits[i];
  }
  return out;
}

/**
 * The allocation named by the path, after checking the caller holds `capability` (or any one of several)
 * in its namespace.
 */
export function allocForRequest(req: SchedulerRequest, capability: string | readonly string[]): Allocation {
  const caps = typeof capability === 'string' ? [capability] : capability;
  const allows = (namespace: string) => caps.some((cap) => req.caller.acl.allowsNamespace(namespace, cap));
  // A token that holds the capability in no namespace learns nothing, not even whether the ID is well formed.
  if (!allows('*')) throw new PermissionDenied('Permission denied');
  const id = req.params.alloc_id;
  if (!UUID.test(id)) throw new UserError(`alloc_id "${id}" is not a full allocation UUID (36 characters); resolve a short ID with GET /v1/allocations?prefix=`);
  const alloc = getAlloc(req.services.store, id);
  if (!alloc) throw new NotFound('alloc not found');
  if (!allows(alloc.Namespace)) throw new PermissionDenied('Permission denied');
  return alloc;
}

function* fullsOf(store: Store, ids: Iterable<string>): Generator<Allocation> {
  for (const id of ids) {
    const alloc = getAlloc(store, id);
    if (alloc) yield alloc;
  }
}

function parseToken(token: string): { index: number; id: string } | undefined {
  if (token === '') return undefined;
  compareCreateIndexTokens(token, token);
  const dot = token.indexOf('.');
  return { index: Number(dot < 0 ? token : token.slice(0, dot)), id: dot < 0 ? '' : token.slice(dot + 1) };
}

export function bodyObject(req: SchedulerRequest<Caller>, what: string, required: boolean): Record<string, unknown> {
  const body = req.body();
  if (body === undefined) {
    if (required) throw new UserError(`Failed to decode body: the request needs a JSON ${what}`);
    return {};
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UserError(`request body must be a JSON ${what}`);
  return body as Record<string, unknown>;
}

/**
 * The node that runs the allocation, in this server's process or through its tunnel here. A node another
 * server reaches never gets here: the request was forwarded to that server (node-forward.ts). The message
 * fits a WebSocket close reason (123 bytes) whole, as exec refusals are sent.
 */
export function nodeControl(req: { services: SchedulerContext }, alloc: Allocation): NodeControl {
  const control = req.services.scheduler.nodeControl(alloc.NodeID);
  if (!control) throw new UserError(`node ${alloc.NodeID} of allocation ${alloc.ID} is not connected to any server`);
  return control;
}

export function taskNames(req: SchedulerRequest, alloc: Allocation): string[] {
  const reported = Object.keys(alloc.TaskStates ?? {});
  if (reported.length > 0) return reported;
  return jobCache(req.services.store)(alloc)?.TaskGroups.find((g) => g.Name === alloc.TaskGroup)?.Tasks.map((t) => t.Name) ?? [];
}

export const allocRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/allocations',
    acl: { namespace: ['read-job'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List allocations, oldest first (by ID with a prefix).',
    query: {
      prefix: { type: 'string', description: 'Only allocations whose ID starts with this (an even number of hex characters).' },
      next_token: { type: 'string', description: 'Where the page starts: the X-Svc-NextToken of the previous page.' },
      per_page: { type: 'int', description: 'Page size; 0 means no paging.' },
      filter: { type: 'string', description: 'A filter expression evaluated against each allocation.' },
      resources: { type: 'bool', description: 'Include AllocatedResources.' },
      task_states: { type: 'bool', description: 'Include TaskStates.', default: true },
      reverse: { type: 'bool', description: 'Newest first (reverse ID order with a prefix).' },
    },
    handler: async (req) => {
      const { store } = req.services;
      const prefix = req.query.get<string>('prefix');
      if (prefix) validateHexPrefix(prefix);
      const perPage = req.query.get<number>('per_page');
      if (perPage < 0) throw new UserError(`per_page must be a whole number of 0 or more, got ${perPage}`);
      const token = req.query.get<string>('next_token');
      const reverse = req.query.get<boolean>('reverse');
      const filterText = req.query.get<string>('filter');
      const filter = filterText ? compileFilter(filterText) : undefined;
      const opts = { resources: req.query.get<boolean>('resources'), taskStates: req.query.get<boolean>('task_states') };
      const index = Math.max(1, store.tableIndex(ALLOCS_TABLE));
      const jobOf = jobCache(store);
      const typeOf = jobTypeCache(store);
      const { acl } = req.caller;
      const readable = (a: AllocStubRecord) => (req.namespace === '*' ? acl.allowsNamespace(a.Namespace, 'read-job') : a.Namespace === req.namespace);
      // With a prefix, allocations come in ID order (newest ID first with `reverse`); otherwise in creation order.
      const byPrefix = () => allocIdsByPrefix(store, dashedPrefix(prefix), { reverse, start: token || undefined });
      const fromToken = prefix ? undefined : parseToken(token);
      const fulls = (): Iterable<Allocation> => (prefix ? fullsOf(store, byPrefix()) : allocsByCreate(store, { fromToken, reverse }));
      // The stub lacks AllocatedResources; with `resources` the full record is read instead.
      const listed = (): Iterable<AllocStubRecord> => (opts.resources ? fulls() : prefix ? stubsOf(store, byPrefix()) : stubsByCreate(store, { fromToken, reverse }));
      // Filters see the full allocation (with its job when the expression names it), as in Nomad.
      const needsJob = filterText.includes('Job');
      const matches = (a: Allocation) => readable(a) && (!filter || filter(needsJob ? { ...a, Job: jobOf(a) } : a));
      const records = (ids: Iterable<string>) => (opts.resources ? fullsOf(store, ids) : stubsOf(store, ids));
      const render = (a: AllocStubRecord) => allocStub(a, typeOf(a), opts);

      if (perPage > 0) {
        const page: AllocStubRecord[] = [];
        let nextToken: string | undefined;
        const source = filter ? fulls() : listed();
        await forEachYielding(source, (a) => {
          if (filter ? !matches(a as Allocation) : !readable(a)) return;
          if (page.length === perPage) {
            nextToken = prefix ? a.ID : `${a.CreateIndex}.${a.ID}`;
            return false;
          }
          page.push(a);
        });
        return { body: page.map(render), index, headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined };
      }
      if (!filter) return streamedList(index, listed(), (a) => (readable(a) ? render(a) : undefined));
      // A filter can fail on any record, which must be a 400 rather than a cut stream: select first
      // (keeping only IDs), then stream what was selected.
      const selected: string[] = [];
      await forEachYielding(fulls(), (a) => {
        if (matches(a)) selected.push(a.ID);
      });
      return streamedList(index, records(selected), render);
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/allocation/:alloc_id',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'Read an allocation (by its full ID).',
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-job');
      return { body: allocFull(alloc, jobCache(req.services.store)(alloc)), index: alloc.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/allocation/:alloc_id/stop',
    acl: { authenticated: true },
    synopsis: 'Stop an allocation by migrating it: an evaluation stops it and places a linked replacement where the job still wants one.',
    query: { no_shutdown_delay: { type: 'bool', description: 'Ignore group and task shutdown_delay.' } },
    handler: async (req) => {
      const alloc = allocForRequest(req, 'alloc-lifecycle');
      const { evaluation, index } = await stopAlloc(req.services.store, alloc.ID, req.query.get<boolean>('no_shutdown_delay'));
      return { body: { EvalID: evaluation?.ID ?? '', Index: index }, index };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/client/allocation/:alloc_id/signal',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Send a signal to one task of an allocation, or to all of them.',
    handler: async (req) => {
      const alloc = allocForRequest(req, 'alloc-lifecycle');
      const body = bodyObject(req, 'object with the Signal to send', true);
      const { Signal = 'SIGKILL', Task } = body;
      if (typeof Signal !== 'string' || !/^SIG[A-Z0-9]+$/.test(Signal.toUpperCase())) throw new UserError('field "Signal" must be a signal name such as SIGHUP');
      if (Task !== undefined && Task !== '' && typeof Task !== 'string') throw new UserError('field "Task" must be a string');
      if (Task && !taskNames(req, alloc).includes(Task as string)) throw new UserError(`field "Task": unknown task name "${String(Task)}" in allocation ${alloc.ID}`);
      if (allocTerminal(alloc)) throw new UserError(`allocation ${alloc.ID} is not running (${alloc.ClientStatus}); there is nothing to signal`);
      await nodeControl(req, alloc).signal(alloc.ID, Signal.toUpperCase(), (Task as string) || undefined);
      return { body: { Index: 0 }, index: 0 };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/client/allocation/:alloc_id/restart',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Restart one task of an allocation, or all of them, in place.',
    handler: async (req) => {
      const alloc = allocForRequest(req, 'alloc-lifecycle');
      const { TaskName = '', AllTasks = false } = bodyObject(req, 'object', false);
      if (typeof TaskName !== 'string') throw new UserError('field "TaskName" must be a string');
      if (typeof AllTasks !== 'boolean') throw new UserError('field "AllTasks" must be a boolean');
      if (TaskName && AllTasks) throw new UserError('TaskName and AllTasks cannot be used together: restart one task, or all of them');
      if (TaskName && !taskNames(req, alloc).includes(TaskName)) throw new UserError(`field "TaskName": unknown task name "${TaskName}" in allocation ${alloc.ID}`);
      if (allocTerminal(alloc)) throw new UserError(`allocation ${alloc.ID} is not running (${alloc.ClientStatus}); there is nothing to restart`);
      await nodeControl(req, alloc).restart(alloc.ID, { task: TaskName || undefined, allTasks: AllTasks });
      return { body: { Index: 0 }, index: 0 };
    },
  }),
];
