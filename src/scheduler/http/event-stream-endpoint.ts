/**
 * GET /v1/event/stream: Nomad's event stream. NDJSON frames `{"Index":N,"Events":[...]}`, one per write
 * with events that pass the request's filter, and `{}` every 10 s with none, until the client goes away
 * or the server stops. `topic` (repeated) is `Topic:key`, `Topic` (every key), `*` or `*:*`; `index`
 * resumes after that index from what the broker still holds; `namespace` filters, `*` for all the token
 * may read. The ACL is per topic, as Nomad's: read-job on the namespace for Job, Evaluation, Allocation,
 * Deployment and Service, node read for Node, a management token for `*`. A client that does not read while
 * writes go on is cut off (its connection closed) once it falls too far behind (broker.ts).
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { HEARTBEAT_MS } from '../wire/stream-frames.js';
import type { EventFilter } from '../events/broker.js';
import { EVENT_TOPICS } from '../events/events.js';
import { listNamespaces } from '../state/namespaces.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import { defineRoute } from './route.js';

/** Topics whose events belong to a namespace: reading them takes read-job there. */
const NAMESPACED = new Set(['Job', 'Evaluation', 'Allocation', 'Deployment', 'Service']);

/** Nomad's parseEventTopics: no topic is every topic; a topic without a key is every key of it. */
export function parseTopics(raw: readonly string[]): Map<string, string[]> {
  const topics = new Map<string, string[]>();
  for (const t of raw.length === 0 ? ['*'] : raw) {
    const parts = t.split(':');
    if (parts.length > 2 || parts[0] === '') throw new UserError(`Invalid topic query: invalid key value pair for topic, topic: ${t} (give Topic or Topic:key, such as Job:web)`);
    const [topic, key = '*'] = parts;
    if (topic !== '*' && !EVENT_TOPICS.includes(topic)) throw new UserError(`Invalid topic query: unknown topic "${topic}" (known: *, ${EVENT_TOPICS.join(', ')})`);
    if (key === '') throw new UserError(`Invalid topic query: topic ${t} has an empty key (give a key, or * for all)`);
    topics.set(topic, [...(topics.get(topic) ?? []), key]);
  }
  return topics;
}

/**
 * Nomad's validateNsOp over every namespace asked for: a topic the token may not read is a 403 with
 * Nomad's bare "Permission denied", as every refused scheduler request answers.
 */
function checkTopics(caller: TokenCaller, topics: ReadonlyMap<string, readonly string[]>, namespaces: readonly string[]): void {
  const { acl } = caller;
  if (acl.root) return;
  for (const topic of topics.keys()) {
    const allowed = NAMESPACED.has(topic) ? namespaces.every((ns) => acl.allowsNamespace(ns, 'read-job')) : topic === 'Node' ? acl.allowsNode('read') : false;
    if (!allowed) throw new PermissionDenied('Permission denied');
  }
}

export const eventStreamRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/event/stream',
    // Checked per topic by the handler, as Nomad's event endpoint does.
    acl: { authenticated: true },
    allNamespaces: true,
    query: {
      topic: { type: 'string', description: 'Topic:key to stream (Job:web, Job, *); may be repeated; default * (management only).' },
    },
    synopsis: 'Stream the events of state changes as NDJSON frames, resuming after `index`, filtered by topic and namespace.',
    handler: async (req) => {
      const broker = req.services.events;
      if (broker === undefined) throw new UserError('the event stream is disabled on this server (server { enable_event_broker = false } or event_buffer_size = 0)');
      const topics = parseTopics(req.raw.query.getAll('topic'));
      const index = req.query.get<number>('index') ?? 0;
      if (!Number.isSafeInteger(index) || index < 0) throw new UserError(`Unable to parse index: ${String(req.raw.query.get('index'))} is not a whole number of 0 or more`);
      const all = req.namespace === '*';
      const namespaces = all ? listNamespaces(req.services.store).map((n) => n.Name) : [req.namespace];
      checkTopics(req.caller, topics, namespaces);
      // `*` for a management token is every namespace, those made later too; for another token, the ones
      // it was found to read when the stream opened.
      const filter: EventFilter = { topics, namespaces: all && req.caller.acl.root ? undefined : new Set(namespaces) };
      const log = req.services.log;
      return {
        body: undefined,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
        stream: async (write, signal) => {
          const sub = broker.subscribe(filter, index);
          const onAbort = () => sub.close();
          signal.addEventListener('abort', onAbort, { once: true });
          if (signal.aborted) sub.close();
          try {
            for (;;) {
              const next = await sub.next(HEARTBEAT_MS);
              if ('ended' in next) {
                if (next.ended === 'behind') {
                  log.warn(`event stream request ${req.requestId}: the stream missed writes (its client fell too far behind, or this server reloaded the state), closing it`);
                  throw new Error('event stream subscriber fell behind');
                }
                return;
              }
              // A client that stopped reading holds this write until the broker cuts it off.
              await Promise.race([write('frame' in next ? next.frame : HEARTBEAT), sub.ended()]);
            }
          } finally {
            sub.close();
            signal.removeEventListener('abort', onAbort);
          }
        },
      };
    },
  }),
];

const HEARTBEAT = '{}\n';
