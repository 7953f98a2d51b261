/**
 * The event broker: hears every write the store applies to the stream's tables (Store.follow: this
 * server's writes and, on a shared database, every other server's), keeps the last `size` of them in a
 * ring for subscribers that resume from an index, and hands each write to every subscriber. A write is
 * kept as the store applied it; its events are built the first time a subscriber reads it, once however
 * many subscribers hold it then, and kept only while one does (Slot.release).
 *
 * Writers never wait for subscribers: publishing appends to each subscriber's queue. A subscriber that
 * does not keep up (its client not reading) is cut off once its queue holds more than `backlogBytes` of
 * the writes' JSON, which frees what it held. The ring is bounded the same way, by `bufferBytes` as well
 * as by count, so that a few large writes (plans of a thousand placements) cannot hold a lot of memory.
 */
import type { AppliedWrite, Store } from '../../storage/store.js';
import { EVENT_TABLES, sourcesOf, type EventSource } from './events.js';
import type { BuiltEvent } from './build-events.js';
import { createEventBuilder, type EventBuilder } from './event-pool.js';

export interface BrokerOptions {
  /** writes kept for resuming subscribers (Nomad's event_buffer_size) */
  size: number;
  /** the most a subscriber may fall behind, in bytes of the writes' JSON, before it is cut off */
  backlogBytes: number;
  /** the most the ring keeps, in the same measure */
  bufferBytes: number;
}

export const DEFAULT_BROKER_OPTIONS: BrokerOptions = { size: 100, backlogBytes: 32 * 1024 * 1024, bufferBytes: 32 * 1024 * 1024 };

/** What a subscriber asks for: topics with their keys (`*` for all), and the namespaces (undefined: all). */
export interface EventFilter {
  topics: ReadonlyMap<string, readonly string[]>;
  namespaces: ReadonlySet<string> | undefined;
}

/** The most writes, and bytes of their JSON, one batch of frames is made of. */
const BATCH_WRITES = 256;
const BATCH_BYTES = 4 * 1024 * 1024;

/** One write, as the ring and the queues hold it. */
class Slot {
  private sources: EventSource[] | undefined;
  private topics: ReadonlySet<string> | undefined;
  /** per source, its event once its topic was built (null: the change is no event) */
  private readonly built: Array<BuiltEvent | null | undefined> = [];

  private readonly building = new Map<string, Promise<void>>();
  /** subscribers that hold the write in their queue or are making its frame */
  private readers = 0;

  constructor(
    readonly write: AppliedWrite,
    readonly bytes: number,
    private readonly builder: EventBuilder,
  ) {}

  get index(): number {
    return this.write.index;
  }

  /** A subscriber queued the write. */
  hold(): void {
    this.readers++;
  }

  /**
   * A subscriber made its frame or dropped the write. Once none holds it the built events go: kept in
   * the ring, a stream's every event outlived the young generation, and collecting them from the old
   * one was the largest cost of a stream of every topic. A subscriber that resumes from the ring later
   * has them built again.
   */
  release(): void {
    if (--this.readers > 0) return;
    this.built.length = 0;
    this.building.clear();
  }

  /**
   * The NDJSON frame of the write's events that pass `filter`, or undefined when none does. The events
   * of a topic are built the first time a subscriber of that topic asks, and only then: a stream of
   * nodes' events costs nothing for a plan of a thousand placements.
   */
  async frame(filter: EventFilter): Promise<string | undefined> {
    const sources = (this.sources ??= sourcesOf(this.write));
    this.topics ??= new Set(sources.map((s) => s.topic));
    const everyTopic = filter.topics.has('*');
    const wanted = (topic: string) => everyTopic || filter.topics.has(topic);
    const waits: Array<Promise<void>> = [];
    for (const topic of this.topics) if (wanted(topic)) waits.push(this.buildTopic(topic));
    if (waits.length === 0) return undefined;
    await Promise.all(waits);
    let events = '';
    for (let i = 0; i < sources.length; i++) {
      const e = this.built[i];
      if (!e || !wanted(e.topic) || !matches(filter, e)) continue;
      events += events === '' ? e.json : `,${e.json}`;
    }
    if (events === '') return undefined;
    return `{"Index":${this.write.index},"Events":[${events}]}\n`;
  }

  private buildTopic(topic: string): Promise<void> {
    let done = this.building.get(topic);
    if (done === undefined) {
      const positions: number[] = [];
      const group: EventSource[] = [];
      this.sources!.forEach((s, i) => {
        if (s.topic !== topic) return;
        positions.push(i);
        group.push(s);
      });
      done = this.builder.build(this.write, group).then((events) => positions.forEach((at, j) => (this.built[at] = events[j])));
      this.building.set(topic, done);
      // A build that failed (the event thread gone) is asked again by the next reader, on a new thread.
      done.catch(() => this.building.delete(topic));
    }
    return done;
  }
}

/** Nomad's subscription filter: namespace first (events of no namespace, nodes', pass), then topic and key. */
function matches(filter: EventFilter, e: BuiltEvent): boolean {
  if (e.namespace !== '' && filter.namespaces !== undefined && !filter.namespaces.has(e.namespace)) return false;
  return keyMatches(filter.topics.get('*'), e) || keyMatches(filter.topics.get(e.topic), e);
}

function keyMatches(keys: readonly string[] | undefined, e: BuiltEvent): boolean {
  if (keys === undefined) return false;
  for (const k of keys) if (k === '*' || k === e.key || (e.filterKeys?.includes(k) ?? false)) return true;
  return false;
}

export type NextFrame = { frame: string } | { idle: true } | { ended: 'closed' | 'behind' };

export class Subscription {
  private queue: Slot[] = [];
  private queued = 0;
  private state: 'open' | 'closed' | 'behind' = 'open';
  private wake: (() => void) | undefined;
  /** one promise however often `ended` is asked (once a frame, by a stream that runs for days) */
  private endedPromise: Promise<void> | undefined;
  private resolveEnded: (() => void) | undefined;

  constructor(
    private readonly filter: EventFilter,
    private readonly backlogBytes: number,
    private readonly onClose: (s: Subscription) => void,
    backlog: readonly Slot[],
  ) {
    for (const slot of backlog) this.offer(slot);
  }

  get open(): boolean {
    return this.state === 'open';
  }

  /** How far behind the subscriber is, in bytes of the writes' JSON. */
  get backlog(): number {
    return this.queued;
  }

  offer(slot: Slot): void {
    if (this.state !== 'open') return;
    slot.hold();
    this.queue.push(slot);
    this.queued += slot.bytes;
    // One write however large is not falling behind: a plan of many placements is one.
    if (this.queued > this.backlogBytes && this.queue.length > 1) this.end('behind');
    else this.wake?.();
  }

  /**
   * The next frames for the subscriber, of every write queued now (up to a bound), as one text: one
   * socket write for a burst of writes rather than one each; `idle` after `idleMs` with nothing for it;
   * `ended` once it is closed or cut off.
   */
  async next(idleMs: number): Promise<NextFrame> {
    for (;;) {
      if (this.state !== 'open') return { ended: this.state };
      if (this.queue.length > 0) {
        const slots = this.take();
        let frames: string[];
        try {
          // Built side by side: the writes' events are asked of the event thread together.
          frames = (await Promise.all(slots.map((slot) => slot.frame(this.filter)))).filter((f) => f !== undefined);
        } finally {
          for (const slot of slots) slot.release();
        }
        if (this.state !== 'open') continue;
        // A single frame as it is, not joined into a copy.
        if (frames.length > 0) return { frame: frames.length === 1 ? frames[0] : frames.join('') };
        continue;
      }
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), idleMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      this.wake = undefined;
      if (!woken && this.state === 'open' && this.queue.length === 0) return { idle: true };
    }
  }

  /** The queued writes a batch of frames is made of, oldest first: up to BATCH_WRITES, or BATCH_BYTES of their JSON. */
  private take(): Slot[] {
    const slots: Slot[] = [];
    let bytes = 0;
    while (this.queue.length > 0 && slots.length < BATCH_WRITES && (slots.length === 0 || bytes + this.queue[0].bytes <= BATCH_BYTES)) {
      const slot = this.queue.shift()!;
      this.queued -= slot.bytes;
      bytes += slot.bytes;
      slots.push(slot);
    }
    return slots;
  }

  /** Resolves once the subscription is closed or cut off: a write blocked on a client that does not read waits for this too. */
  ended(): Promise<void> {
    if (this.state !== 'open') return Promise.resolve();
    this.endedPromise ??= new Promise((resolve) => (this.resolveEnded = resolve));
    return this.endedPromise;
  }

  close(): void {
    this.end('closed');
  }

  /** Cut off: the subscriber missed writes (its queue overflowed, or the server skipped some). */
  fellBehind(): void {
    this.end('behind');
  }

  private end(state: 'closed' | 'behind'): void {
    if (this.state !== 'open') return;
    this.state = state;
    for (const slot of this.queue) slot.release();
    this.queue = [];
    this.queued = 0;
    this.onClose(this);
    this.wake?.();
    this.resolveEnded?.();
  }
}

export class EventBroker {
  private readonly ring: Slot[] = [];
  private ringBytes = 0;
  private readonly subscribers = new Set<Subscription>();
  private readonly unfollow: () => void;
  private readonly builder: EventBuilder = createEventBuilder();

  constructor(
    store: Store,
    private readonly opts: BrokerOptions = DEFAULT_BROKER_OPTIONS,
  ) {
    this.unfollow = store.follow(
      EVENT_TABLES,
      (write) => this.publish(write),
      () => this.lost(),
    );
  }

  /** How many subscribers are served now. */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** The index of the oldest write the ring still holds (0 when it holds none). */
  get oldest(): number {
    return this.ring[0]?.index ?? 0;
  }

  /**
   * A subscriber from now on, first handed the ring's writes after `index` (all it holds for 0); a resume
   * from before the ring's oldest starts there, as Nomad's does.
   */
  subscribe(filter: EventFilter, index: number): Subscription {
    const backlog = this.ring.filter((slot) => slot.index > index);
    const sub = new Subscription(filter, this.opts.backlogBytes, (s) => this.subscribers.delete(s), backlog);
    // One whose backlog alone was too much is cut off already.
    if (sub.open) this.subscribers.add(sub);
    return sub;
  }

  /** Ends every subscription and stops following the store (the server is shutting down). */
  async close(): Promise<void> {
    this.unfollow();
    for (const sub of [...this.subscribers]) sub.close();
    await this.builder.close();
  }

  /**
   * The store skipped writes (it loaded a snapshot): what the ring holds no longer runs on to what comes
   * next, so it is dropped, and every subscriber is cut off as one that fell behind, to resubscribe.
   */
  private lost(): void {
    this.ring.length = 0;
    this.ringBytes = 0;
    for (const sub of [...this.subscribers]) sub.fellBehind();
  }

  private publish(write: AppliedWrite): void {
    let bytes = 0;
    for (const change of write.changes) bytes += change[1].length + (change[2]?.length ?? 0);
    const slot = new Slot(write, bytes, this.builder);
    this.ring.push(slot);
    this.ringBytes += bytes;
    while (this.ring.length > this.opts.size || (this.ringBytes > this.opts.bufferBytes && this.ring.length > 1)) this.ringBytes -= this.ring.shift()!.bytes;
    for (const sub of this.subscribers) sub.offer(slot);
  }
}
