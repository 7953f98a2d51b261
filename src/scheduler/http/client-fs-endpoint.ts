/**
 * /v1/client/fs/*: a task's logs and its allocation directory, read on the node that runs the allocation
 * (the server's own, or a node through its tunnel: see AllocFs). Nomad's wire format: logs and stream
 * answer StreamFrames (src/scheduler/wire/stream-frames.ts), cat and readat the raw bytes, ls and stat
 * AllocFileInfo JSON. Unlike Nomad's, a follow ends by itself once the task (logs) or the allocation
 * (stream) is done and everything was sent, so `svc alloc logs -f` exits.
 */
import { UserError } from '../../shared/errors.js';
import { getAlloc } from '../state/allocs.js';
import { clientTerminal, type Allocation } from '../structs/allocation.js';
import { allocForRequest, nodeControl, taskNames } from './alloc-endpoint.js';
import { defineRoute, type RouteResult, type SchedulerRequest } from './route.js';
import type { AllocFs } from '../wire/alloc-fs.js';
import { sendEvents, type StreamEvent } from '../wire/stream-frames.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import type { Store } from '../../storage/store.js';

const JSON_TYPE = 'application/json';
const PLAIN_TYPE = 'text/plain; charset=utf-8';
const BYTES_TYPE = 'application/octet-stream';

const PATH_QUERY: Fields = { path: { type: 'string', description: 'A path relative to the allocation directory.', default: '/' } };
const OFFSET_QUERY: Fields = {
  offset: { type: 'int', description: 'Bytes from the origin to start at (0 or more).' },
  origin: { type: 'string', description: 'Where the offset counts from: start or end.', allowedValues: ['start', 'end'], default: 'start' },
};

/** The allocation's directory on the node that runs it: 404 on use when it has none there (not yet, or removed). */
const filesOf = (req: SchedulerRequest, alloc: Allocation): AllocFs => nodeControl(req, alloc).files(alloc.ID);

function nonNegative(req: SchedulerRequest, name: string): number {
  const n = req.query.get<number>(name);
  if (n < 0) throw new UserError(`field "${name}" must be 0 or more, got ${n}`);
  return n;
}

/** Whether the task can write no more: dead, its allocation terminal on the node, or gone. */
const taskFinished = (store: Store, allocId: string, task: string) => () => {
  const alloc = getAlloc(store, allocId);
  return !alloc || clientTerminal(alloc.ClientStatus) || alloc.TaskStates?.[task]?.State === 'dead';
};

/** Whether nothing will write to the allocation directory any more. */
const allocFinished = (store: Store, allocId: string) => () => {
  const alloc = getAlloc(store, allocId);
  return !alloc || clientTerminal(alloc.ClientStatus);
};

/**
 * A streamed answer whose reader is opened now, so that what fails (the file went away, no log at all)
 * is a plain-text error with its status rather than a cut stream. The reader stops when the stream's
 * signal aborts (client gone, server shutting down).
 */
async function openedStream(contentType: string, plain: boolean, open: (signal: AbortSignal) => Promise<AsyncGenerator<StreamEvent>>): Promise<RouteResult> {
  const stop = new AbortController();
  const reader = await open(stop.signal);
  return {
    body: undefined,
    headers: { 'content-type': contentType },
    stream: async (write, signal) => {
      const relay = () => stop.abort();
      signal.addEventListener('abort', relay, { once: true });
      if (signal.aborted) stop.abort();
      try {
        await sendEvents(reader, write, plain);
      } finally {
        signal.removeEventListener('abort', relay);
        await reader.return(undefined);
      }
    },
  };
}

export const clientFsRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/logs/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: "Stream a task's stdout or stderr across its rotated log files, as frames or plain bytes.",
    query: {
      // Required, but checked after the capability: a token that may not read logs learns nothing.
      task: { type: 'string', description: 'The task whose log to read (required).' },
      type: { type: 'string', description: 'Which log: stdout or stderr (required).', allowedValues: ['stdout', 'stderr'] },
      follow: { type: 'bool', description: 'Keep streaming what the task writes; ends once the task is dead and everything was sent.' },
      plain: { type: 'bool', description: 'Answer the bytes alone instead of JSON frames.' },
      ...OFFSET_QUERY,
    },
    handler: async (req) => {
      // Nomad lets either capability read logs: read-fs reads the whole directory, logs included.
      const alloc = allocForRequest(req, ['read-logs', 'read-fs']);
      for (const name of ['task', 'type']) if (!req.query.get<string>(name)) throw new UserError(`missing required field "${name}"`);
      const task = req.query.get<string>('task');
      if (!taskNames(req, alloc).includes(task)) throw new UserError(`field "task": unknown task name "${task}" in allocation ${alloc.ID}`);
      const offset = nonNegative(req, 'offset');
      const files = filesOf(req, alloc);
      const plain = req.query.get<boolean>('plain');
      return openedStream(plain ? PLAIN_TYPE : JSON_TYPE, plain, (signal) =>
        files.logs({
          task,
          type: req.query.get<'stdout' | 'stderr'>('type'),
          origin: req.query.get<'start' | 'end'>('origin'),
          offset,
          follow: req.query.get<boolean>('follow'),
          finished: taskFinished(req.services.store, alloc.ID, task),
          signal,
        }),
      );
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/ls/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'List a directory of the allocation directory.',
    query: PATH_QUERY,
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-fs');
      return { body: await filesOf(req, alloc).ls(req.query.get<string>('path')) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/stat/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Describe one file or directory of the allocation directory.',
    query: PATH_QUERY,
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-fs');
      return { body: await filesOf(req, alloc).stat(req.query.get<string>('path')) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/cat/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Read a file of the allocation directory (raw bytes).',
    query: PATH_QUERY,
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-fs');
      const files = filesOf(req, alloc);
      return openedStream(BYTES_TYPE, true, (signal) =>
        files.read(req.query.get<string>('path'), { origin: 'start', offset: 0, limit: 0, follow: false, finished: allocFinished(req.services.store, alloc.ID), signal }),
      );
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/readat/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Read part of a file of the allocation directory (raw bytes): limit bytes from offset.',
    query: {
      ...PATH_QUERY,
      offset: { type: 'int', description: 'Where to start, in bytes from the start of the file.' },
      limit: { type: 'int', description: 'How many bytes at most; 0 reads to the end.' },
    },
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-fs');
      const offset = nonNegative(req, 'offset');
      const limit = nonNegative(req, 'limit');
      const files = filesOf(req, alloc);
      return openedStream(BYTES_TYPE, true, (signal) =>
        files.read(req.query.get<string>('path'), { origin: 'start', offset, limit, follow: false, finished: allocFinished(req.services.store, alloc.ID), signal }),
      );
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/fs/stream/:alloc_id',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: 'Stream a file of the allocation directory as frames, following it by default (as Nomad).',
    query: {
      ...PATH_QUERY,
      ...OFFSET_QUERY,
      follow: { type: 'bool', description: 'Keep streaming what is appended; ends once the allocation is terminal and everything was sent.', default: true },
    },
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-fs');
      const offset = nonNegative(req, 'offset');
      const files = filesOf(req, alloc);
      return openedStream(JSON_TYPE, false, (signal) =>
        files.read(req.query.get<string>('path'), {
          origin: req.query.get<'start' | 'end'>('origin'),
          offset,
          limit: 0,
          follow: req.query.get<boolean>('follow'),
          finished: allocFinished(req.services.store, alloc.ID),
          signal,
        }),
      );
    },
  }),
];
