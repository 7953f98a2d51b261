/**
 * Events as subscribers are sent them: what their filters look at, and their JSON as UTF-8 bytes, all of
 * a batch in one buffer, which the event-building thread (event-worker.ts) hands over without a copy and
 * which goes to the sockets as it is. Made from the records a write changed (events.ts).
 */
import { eventJson, eventOf, type EventSource } from './events.js';

export interface EventMeta {
  topic: string;
  key: string;
  namespace: string;
  filterKeys: string[] | null;
  /** where its JSON lies in the batch's bytes */
  start: number;
  end: number;
}

/** What a batch to build names of its write. */
export interface WriteHeader {
  index: number;
  kind?: string;
}

export interface BuiltBatch {
  /** one per source (null for a change that is no event) */
  meta: Array<EventMeta | null>;
  json: Buffer;
}

export function buildEvents(write: WriteHeader, sources: readonly EventSource[]): BuiltBatch {
  const texts: string[] = [];
  let at = 0;
  const meta = sources.map((source): EventMeta | null => {
    const e = eventOf(write, source);
    if (e === undefined) return null;
    const text = eventJson(e);
    texts.push(text);
    const start = at;
    at += Buffer.byteLength(text);
    return { topic: e.topic, key: e.key, namespace: e.namespace, filterKeys: e.filterKeys, start, end: at };
  });
  // Not from Buffer's shared pool: the bytes' own memory, which the thread can hand over.
  const json = Buffer.allocUnsafeSlow(at);
  let offset = 0;
  for (const text of texts) offset += json.write(text, offset);
  return { meta, json };
}
