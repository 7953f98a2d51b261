/**
 * An event as subscribers are sent it: what their filters look at, and its JSON. Made from the records a
 * write changed (events.ts), here or on the event-building thread (event-worker.ts), which hands back
 * only these.
 */
import { eventOf, type EventSource } from './events.js';

export interface BuiltEvent {
  topic: string;
  key: string;
  namespace: string;
  filterKeys: string[] | null;
  json: string;
}

/** What a batch to build names of its write. */
export interface WriteHeader {
  index: number;
  kind?: string;
}

/** The events of `sources`, one per source (null for a change that is no event). */
export function buildEvents(write: WriteHeader, sources: readonly EventSource[]): Array<BuiltEvent | null> {
  return sources.map((source) => {
    const e = eventOf(write, source);
    return e === undefined ? null : { topic: e.Topic, key: e.Key, namespace: e.Namespace, filterKeys: e.FilterKeys, json: JSON.stringify(e) };
  });
}
