/**
 * The event-building thread (event-pool.ts), built as dist/event-worker.cjs: parsing each changed record
 * and writing its event's JSON is most of what a stream of every topic costs, and a plan of a thousand
 * placements is a thousand of them, which this thread does beside the one that schedules and commits.
 * Requests come in batches (all those of one turn of the server's event loop) and are answered so.
 */
import { parentPort } from 'node:worker_threads';
import { buildEvents, type WriteHeader } from './build-events.js';
import type { EventSource } from './events.js';

parentPort!.on('message', (batch: Array<{ id: number; write: WriteHeader; sources: EventSource[] }>) => {
  parentPort!.postMessage(batch.map((m) => ({ id: m.id, events: buildEvents(m.write, m.sources) })));
});
