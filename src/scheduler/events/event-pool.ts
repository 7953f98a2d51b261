/**
 * Where events are built: the records of a large write (a plan of many placements) on a thread of their
 * own (event-worker.ts) when the server runs from its bundle, those of a small one, and all of them where
 * there is no bundle (tests run the sources), in this thread. A message to the thread and back costs more
 * than building a few records' events (measured: the server's CPU time per placement with a reader of the
 * per-job topics fell by a sixth when they were built here), while a plan's thousand allocations would
 * hold this thread for milliseconds. The thread starts with the first large write and ends with the
 * broker. What is asked of it in one turn of the event loop goes in one message and comes back in one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildEvents, type BuiltEvent, type WriteHeader } from './build-events.js';
import type { EventSource } from './events.js';

const WORKER_SCRIPT = path.join(__dirname, 'event-worker.cjs');

export interface EventBuilder {
  build(write: WriteHeader, sources: EventSource[]): Promise<Array<BuiltEvent | null>>;
  close(): Promise<void>;
}

/** From this many characters of the records' JSON, a write's events are built on the thread. */
export const THREAD_FROM_CHARS = 128 * 1024;

export function createEventBuilder(): EventBuilder {
  let worker: Worker | undefined;
  let available: boolean | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (built: Array<BuiltEvent | null>) => void; reject: (err: Error) => void }>();
  let outgoing: Array<{ id: number; write: WriteHeader; sources: EventSource[] }> = [];

  function flush(): void {
    const batch = outgoing;
    outgoing = [];
    worker?.postMessage(batch);
  }

  function start(): Worker | undefined {
    available ??= existsSync(WORKER_SCRIPT);
    if (!available) return undefined;
    if (worker) return worker;
    const w = new Worker(WORKER_SCRIPT);
    w.on('message', (answers: Array<{ id: number; events: Array<BuiltEvent | null> }>) => {
      for (const m of answers) {
        pending.get(m.id)?.resolve(m.events);
        pending.delete(m.id);
      }
    });
    const gone = (err: Error) => {
      if (worker === w) worker = undefined;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    w.on('error', (err) => gone(new Error(`building events failed: ${err.message}`)));
    w.on('exit', () => gone(new Error('the event-building thread ended')));
    // The server's own work keeps the process alive, not this thread.
    w.unref();
    worker = w;
    return w;
  }

  return {
    build(write, sources) {
      let size = 0;
      for (const s of sources) size += s.text?.length ?? 0;
      const w = size < THREAD_FROM_CHARS ? undefined : start();
      if (!w) return Promise.resolve(buildEvents(write, sources));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        if (outgoing.length === 0) setImmediate(flush);
        outgoing.push({ id, write: { index: write.index, kind: write.kind }, sources });
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
