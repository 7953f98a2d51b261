/**
 * Unpaged listings written as a JSON array in chunks, with a turn of the event loop between chunks: a
 * listing of 100,000 allocations neither holds its whole body (or its records) in memory nor keeps
 * heartbeats and other requests waiting until it is done. The bytes equal JSON.stringify of the array.
 * Everything that can fail with a 4xx is checked before the stream is returned, since its status is
 * sent first.
 */
import type { ResponseStream } from '../../framework/http/types.js';
import { nextTurn, SCAN_BATCH } from '../state/scan.js';
import type { RouteResult } from './route.js';

/** Socket writes of about this size; smaller ones cost a syscall each. */
const CHUNK_CHARS = 64 * 1024;

/**
 * `render` gives the listed form of an item, or undefined for an item that is not listed (another
 * namespace, filtered out); items not listed count towards the turn too, so a scan that lists little
 * still yields.
 */
export function streamedList<S>(index: number, source: Iterable<S>, render: (item: S) => unknown): RouteResult {
  return { body: undefined, index, headers: { 'content-type': 'application/json' }, stream: jsonArray(source, render) };
}

function jsonArray<S>(source: Iterable<S>, render: (item: S) => unknown): ResponseStream {
  return async (write, signal) => {
    let chunk = '[';
    let first = true;
    let visited = 0;
    for (const item of source) {
      const out = render(item);
      if (out !== undefined) {
        chunk += first ? JSON.stringify(out) : `,${JSON.stringify(out)}`;
        first = false;
      }
      if (++visited % SCAN_BATCH === 0 || chunk.length >= CHUNK_CHARS) {
        if (chunk !== '') await write(chunk);
        chunk = '';
        if (signal.aborted) return;
        await nextTurn();
      }
    }
    await write(`${chunk}]`);
  };
}

/**
 * Runs `visit` over `source`, giving the event loop a turn every batch: the selection pass of a filtered
 * listing, which must see every record (a filter error is a 400 before anything is sent).
 */
export async function forEachYielding<S>(source: Iterable<S>, visit: (item: S) => boolean | void): Promise<void> {
  let visited = 0;
  for (const item of source) {
    if (visit(item) === false) return;
    if (++visited % SCAN_BATCH === 0) await nextTurn();
  }
}
