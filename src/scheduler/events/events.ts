/**
 * Nomad's events from one write the store applied: one event per record the write changed in the tables
 * the stream carries, each with the write's type (kinds.ts), the record's topic, key, namespace and
 * filter keys, and its payload in the shape the REST endpoints answer: `{Job}`, `{Allocation}` (without
 * its Job, as Nomad strips it), `{Evaluation}`, `{Deployment}`, `{Node}` (svc keeps a node's SecretID
 * apart from its record, so none is ever in one). A deleted job or node is an event with the key it was
 * stored at (Nomad sends the record as it was; the store's log keeps only that it went); other deletions
 * (garbage collection) are no events, as in Nomad. A service registration's event is named by what
 * happened to it, ServiceRegistration or ServiceDeregistration, whatever write it came with: in svc
 * registrations begin and end in the write that changes their allocation (a plan, a client's update),
 * where in Nomad they are writes of their own.
 */
import type { AppliedWrite } from '../../storage/store.js';
import { allocFull } from '../http/alloc-view.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { readAlloc } from '../state/alloc-record.js';
import { DEPLOYMENTS_TABLE } from '../state/deployments.js';
import { EVALS_TABLE } from '../state/evals.js';
import { NODES_TABLE } from '../state/nodes.js';
import { JOBS_TABLE, SEP } from '../state/tables.js';
import { SERVICE_REGISTRATIONS, type RegistrationRow } from '../state/service-registrations.js';
import { allocPayload } from './alloc-payload.js';
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
  [SERVICE_REGISTRATIONS]: 'Service',
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
  [SERVICE_REGISTRATIONS]: ['', ''],
};

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One record a write changed, as the stream carries it: its event is built only once someone asks for its topic. */
export interface EventSource {
  topic: string;
  table: string;
  key: string;
  /** the record's JSON as the write left it; null when it deleted the record */
  text: string | null;
}

/** The records the write changed in the stream's tables, in the order made; a key changed twice counts once, as it ended. */
export function sourcesOf(write: AppliedWrite): EventSource[] {
  const out: EventSource[] = [];
  const seen = new Map<string, EventSource>();
  for (const [table, key, text] of write.changes) {
    const topic = TOPICS[table];
    if (topic === undefined) continue;
    const id = `${table}\u0000${key}`;
    const earlier = seen.get(id);
    if (earlier) earlier.text = text;
    else {
      const source = { topic, table, key, text };
      seen.set(id, source);
      out.push(source);
    }
  }
  return out;
}

/**
 * The event of one changed record, its payload as JSON text, or undefined for a change that is none (an
 * allocation garbage-collected). A payload that is the record as stored (a job, an evaluation, a
 * deployment, a node) is the record's own text, spliced in rather than parsed and written again: most
 * of what a reader of those topics costs the server was that round trip. An allocation's is spliced
 * from its stored text too (alloc-payload.ts), parsed only where that cannot be. The key and namespace
 * of a job and a node come from the key they are stored at; only filter keys need the record parsed.
 */
export function eventOf(write: Pick<AppliedWrite, 'index' | 'kind'>, source: EventSource): EventParts | undefined {
  const { table, key, text } = source;
  const parts = text === null ? deletedEvent(table, key) : recordEvent(table, key, text);
  const kindType = write.kind === undefined ? undefined : EVENT_TYPES[write.kind];
  const type = parts?.type ?? kindType ?? DEFAULT_TYPES[table][text === null ? 1 : 0];
  if (parts === undefined || type === '') return undefined;
  return { topic: source.topic, type, key: parts.key, namespace: parts.namespace, filterKeys: parts.filterKeys, index: write.index, payload: parts.payload };
}

/** An event as its subscribers' filters read it, with its payload's JSON. */
export interface EventParts {
  topic: string;
  type: string;
  key: string;
  namespace: string;
  filterKeys: string[] | null;
  index: number;
  /** the Payload's JSON: `{"Job":{…}}` */
  payload: string;
}

/** The event's JSON, its fields in Nomad's order. */
export function eventJson(e: EventParts): string {
  return `{"Topic":${JSON.stringify(e.topic)},"Type":${JSON.stringify(e.type)},"Key":${JSON.stringify(e.key)},"Namespace":${JSON.stringify(e.namespace)},"FilterKeys":${JSON.stringify(e.filterKeys)},"Index":${e.index},"Payload":${e.payload}}`;
}

interface Parts {
  key: string;
  namespace: string;
  filterKeys: string[] | null;
  payload: string;
  /** the event's type when the record names it, whatever the write's kind */
  type?: string;
}

const payloadOf = (name: string, json: string) => `{${JSON.stringify(name)}:${json}}`;

function recordEvent(table: string, key: string, text: string): Parts | undefined {
  switch (table) {
    case JOBS_TABLE: {
      const [namespace, id] = key.split(SEP);
      return { key: id, namespace, filterKeys: null, payload: payloadOf('Job', text) };
    }
    case ALLOCS_TABLE: {
      const spliced = allocPayload(text);
      if (spliced !== undefined) return { key: spliced.id, namespace: spliced.namespace, filterKeys: [spliced.jobId, spliced.deploymentId], payload: spliced.payload };
      const a = readAlloc(JSON.parse(text));
      return { key: a.ID, namespace: a.Namespace, filterKeys: [a.JobID, a.DeploymentID], payload: payloadOf('Allocation', JSON.stringify(allocFull(a, null))) };
    }
    case EVALS_TABLE: {
      const r = JSON.parse(text) as Rec;
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: [str(r.JobID), str(r.DeploymentID)], payload: payloadOf('Evaluation', text) };
    }
    case DEPLOYMENTS_TABLE: {
      const r = JSON.parse(text) as Rec;
      return { key: str(r.ID), namespace: str(r.Namespace), filterKeys: [str(r.JobID)], payload: payloadOf('Deployment', text) };
    }
    case NODES_TABLE:
      return { key, namespace: '', filterKeys: null, payload: payloadOf('Node', text) };
    case SERVICE_REGISTRATIONS: {
      const { live, service } = JSON.parse(text) as RegistrationRow;
      return { key: service.ID, namespace: service.Namespace, filterKeys: [service.JobID, service.ServiceName], payload: payloadOf('Service', JSON.stringify(service)), type: live ? 'ServiceRegistration' : 'ServiceDeregistration' };
    }
  }
  return undefined;
}

function deletedEvent(table: string, key: string): Parts | undefined {
  if (table === JOBS_TABLE) {
    const [namespace, id] = key.split(SEP);
    return { key: id, namespace, filterKeys: null, payload: payloadOf('Job', JSON.stringify({ ID: id, Namespace: namespace })) };
  }
  if (table === NODES_TABLE) return { key, namespace: '', filterKeys: null, payload: payloadOf('Node', JSON.stringify({ ID: key })) };
  return undefined;
}
