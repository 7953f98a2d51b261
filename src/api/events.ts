/** GET /v1/event/stream: Nomad's event stream, as frames of events. */
import { StringDecoder } from 'node:string_decoder';
import type { ApiClient, ApiResponse } from './http/client.js';
import { ConnectionError } from '../shared/errors.js';
import { openStream } from './open-stream.js';
import type { StreamEvent } from '../scheduler/events/events.js';

export type { StreamEvent } from '../scheduler/events/events.js';

/** The events of one write that pass the stream's filter. */
export interface EventFrame {
  Index: number;
  Events: StreamEvent[];
}

export interface EventStreamOptions {
  /** `Topic`, `Topic:key`, `*` (every topic); none is every topic */
  topics?: readonly string[];
  /** resume after this index */
  index?: number;
  /** the namespace, `*` for all; the client's by default */
  namespace?: string;
  signal?: AbortSignal;
}

/**
 * Opens the stream (a 4xx throws here, as ApiError) and answers its frames as they come, until the server
 * ends it or `signal` aborts; its `{}` heartbeats are not answered. A stream the server cuts (a client
 * too far behind) ends in a ConnectionError.
 */
export async function eventStream(client: ApiClient, opts: EventStreamOptions = {}): Promise<AsyncGenerator<EventFrame>> {
  const topics = new URLSearchParams((opts.topics ?? []).map((t): [string, string] => ['topic', t]));
  const path = `/v1/event/stream${topics.size > 0 ? `?${topics}` : ''}`;
  const res = await openStream(client, path, { namespace: opts.namespace, index: opts.index }, opts.signal);
  return framesOf(res, opts.signal);
}

async function* framesOf(res: ApiResponse, signal?: AbortSignal): AsyncGenerator<EventFrame> {
  // A character whose bytes two chunks split is decoded once both have come.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of res) {
      const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const frame = parseLine(line);
        if (frame) yield frame;
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw new ConnectionError(`the event stream was cut off (${(err as Error)?.message ?? String(err)})`);
  } finally {
    res.destroy();
  }
  const last = parseLine(rest);
  if (last) yield last;
}

function parseLine(line: string): EventFrame | undefined {
  if (line.trim() === '') return undefined;
  const frame = JSON.parse(line) as Partial<EventFrame>;
  return frame.Index === undefined ? undefined : { Index: frame.Index, Events: frame.Events ?? [] };
}
