/**
 * Nomad's events from one write the store applied: one event per record the write changed in the tables
 * the stream carries, each with the write's type (kinds.ts), the record's topic, key, namespace and
 * filter keys, and its payload in the shape the REST endpoints answer: `{Job}`, `{Allocation}` (without
 * its Job, as Nomad strips it), `{Evaluation}`, `{Deployment}`, `{Node}` (svc keeps a node's SecretID
 * apart from its record, so none is ever in one). A deleted job or node is an event with the key it was
 * stored at (Nomad sends the record as it was; the store's log keeps only that it went); other deletions
 * (garbage collection) are no events, as in Nomad.
 */
import type { AppliedWrite } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import { allocFull } from '../http/alloc-view.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { DEPLOYMENTS_TABLE } from '../state/deployments.js';
import { EVALS_TABLE } from '../state/evals.js';
import { NODES_TABLE } from '../state/nodes.js';
import { JOBS_TABLE, SEP } from '../state/tables.js';
import { EVENT_TYPES } from './kinds.js';

export interface StreamEvent {
  Topic: string;
  Type: string;
  Key: string;
  Namespace: string;
  FilterKeys: string[] | null;
  Index: number;
  Payload: Record<string, unknown>;
}

/** The topics svc's stream carries, by the table each comes from. */
const TOPICS: Readonly<Record<string, string>> = {
  [JOBS_TABLE]: 'Job',
  [ALLOCS_TABLE]: 'Allocation',
  [EVALS_TABLE]: 'Evaluation',
  [DEPLOYMENTS_TABLE]: 'Deployment',
  [NODES_TABLE]: 'Node',
};

export const EVENT_TOPICS: readonly string[] = Object.values(TOPICS);

/** The tables the stream follows. */
export const EVENT_TABLES: ReadonlySet<string> = new Set(Object.keys(TOPICS));

/** The type of a write of no kind: what Nomad names the usual write to the table (a put, or a delete). */
const DEFAULT_TYPES: Readonly<Record<string, readonly [put: string, deleted: string]>> = {
  [JOBS_TABLE]: ['JobRegistered', 'JobDeregistered'],
  [ALLOCS_TABLE]: ['AllocationUpdated', ''],
  [EVALS_TABLE]: ['EvaluationUpdated', ''],
  [DEPLOYMENTS_TABLE]: ['DeploymentStatusUpdate', ''],
  [NODES_TABLE]: ['NodeStreamEvent', 'NodeDeregistration'],
};

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The write's events, in the order its changes were made; a key changed twice counts once, as it ended. */
export function eventsOf(write: AppliedWrite): StreamEvent[] {
  const last = new Map<string, string | null>();
  const order: Array<[table: string, key: string]> = [];
  for (const [table, key, text] of write.changes) {
    const id = `${table}\u0000${key}`;
    if (!last.has(id)) order.push([table, key]);
    last.set(id, text);
  }
  const kindType = write.kind === undefined ? undefined : EVENT_TYPES[write.kind];
  const out: StreamEvent[] = [];
  for (const [table, key] of order) {
    const topic = TOPICS[table];
    if (topic === undefined) continue;
    const text = last.get(`${table}\u0000${key}`)!;
    const type = kindType ?? DEFAULT_TYPES[table][text === null ? 1 : 0];
    const event = text === null ? deletedEvent(table, key) : recordEvent(table, JSON.parse(text) as Rec);
    if (event === undefined || type === '') continue;
    out.push({ Topic: topic, Type: type, Key: event.key, Namespace: event.namespace, FilterKeys: event.filterKeys, Index: write.index, Payload: event.payload });
  }
  return out;
}

interface Parts {
  key: string;
  namespace: string;
  filterKeys: string[] | null;
  payload: Rec;
}

function recordEvent(table: string, r: Rec): Parts | undefined {
  switch (table) {
    case JOBS_TABLE:
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: null, payload: { Job: r } };
    case ALLOCS_TABLE:
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: [str(r.JobID), str(r.DeploymentID)], payload: { Allocation: allocFull(r as unknown as Allocation, null) } };
    case EVALS_TABLE:
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: [str(r.JobID), str(r.DeploymentID)], payload: { Evaluation: r } };
    case DEPLOYMENTS_TABLE:
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: [str(r.JobID)], payload: { Deployment: r } };
    case NODES_TABLE:
      return { key: str(r.ID), namespace: '', filterKeys: null, payload: { Node: r } };
  }
  return undefined;
}

function deletedEvent(table: string, key: string): Parts | undefined {
  if (table === JOBS_TABLE) {
    const [namespace, id] = key.split(SEP);
    return { key: id, namespace, filterKeys: null, payload: { Job: { ID: id, Namespace: namespace } } };
  }
  if (table === NODES_TABLE) return { key, namespace: '', filterKeys: null, payload: { Node: { ID: key } } };
  return undefined;
}
