/**
 * The chunked JSON array writer on its own: its bytes equal JSON.stringify of the listed items, and it
 * gives the event loop a turn between chunks even when the socket never pushes back (a fast reader), so
 * a timer or another request runs before a long listing is done.
 */
import { describe, expect, it } from 'vitest';
import { streamedList } from '../../../src/scheduler/http/json-stream.js';

async function collect(items: Iterable<number>, render: (n: number) => unknown, events: string[]): Promise<string> {
  const out: string[] = [];
  const { stream } = streamedList(1, items, render);
  await stream!(async (chunk) => {
    out.push(String(chunk));
    events.push('chunk');
  }, new AbortController().signal);
  events.push('done');
  return out.join('');
}

describe('streamedList', () => {
  it('writes exactly JSON.stringify of the rendered items, skipping those rendered as undefined', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const render = (n: number) => (n % 3 === 0 ? undefined : { n, s: `item "${n}"`, nested: [n, null] });
    expect(await collect(items, render, [])).toBe(JSON.stringify(items.map(render).filter((v) => v !== undefined)));
    expect(await collect([], (n) => n, [])).toBe('[]');
    expect(await collect([1, 2, 3], () => undefined, [])).toBe('[]');
  });

  it('lets other work run between chunks of a long listing', async () => {
    const events: string[] = [];
    const done = collect(Array.from({ length: 5000 }, (_, i) => i), (n) => ({ n }), events);
    setImmediate(() => events.push('other'));
    await done;
    const other = events.indexOf('other');
    expect(other).toBeGreaterThan(0);
    expect(events.indexOf('done')).toBeGreaterThan(other);
    expect(events.slice(other + 1).filter((e) => e === 'chunk').length).toBeGreaterThan(0);
  });
});
