/**
 * The process's one metrics registry, which every area counts into and both metrics endpoints answer.
 * Series are named as go-metrics names them (`nomad.nomad.broker.total_ready`); the Prometheus name is
 * that with every dot an underscore, as go-metrics' Prometheus sink writes it. prom-client holds the
 * registry, writes the text format and measures the process (CPU, memory, GC, event-loop lag).
 *
 * Updates are what a request pays, so they cost a few additions: a series' label values are bound once
 * (`child(...)` answers the same cell every time, so callers keep it), and nothing is hashed, allocated
 * or formatted until a scrape. What is costly to know (nodes by status, the broker's queues) is read at
 * scrape time by `gaugeAt` instead of being kept up to date by every write.
 *
 * Durations are in milliseconds, as go-metrics' timers are, so upstream dashboards keep their units.
 */
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** prom-client's registry: this process's series and the process metrics it measures itself. */
export const registry = new Registry();

/** This process's series, in the order they were defined. */
export const series: Series<unknown>[] = [];

/** Bucket bounds of every duration histogram, in ms: from half a millisecond to ten seconds. */
const DURATION_BUCKETS_MS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

/** What is known of the values a cell was given, for go-metrics' JSON (Count, Sum, Min, Max, Stddev). */
export class SampleCell {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  sumSquares = 0;

  protected record(value: number): void {
    this.count++;
    this.sum += value;
    this.sumSquares += value * value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
}

export class CounterCell extends SampleCell {
  inc(by = 1): void {
    this.record(by);
  }
}

export class HistogramCell extends SampleCell {
  /** observations at or below each bound (not cumulative: the scrape sums them) */
  readonly buckets = new Float64Array(DURATION_BUCKETS_MS.length);

  observe(ms: number): void {
    this.record(ms);
    for (let i = 0; i < DURATION_BUCKETS_MS.length; i++) {
      if (ms <= DURATION_BUCKETS_MS[i]) {
        this.buckets[i]++;
        return;
      }
    }
  }

  /** Observes the time since `startedMs` (a performance.now() reading). */
  since(startedMs: number): void {
    this.observe(performance.now() - startedMs);
  }
}

export class GaugeCell {
  value = 0;

  set(value: number): void {
    this.value = value;
  }

  inc(by = 1): void {
    this.value += by;
  }

  dec(by = 1): void {
    this.value -= by;
  }
}

export type Kind = 'counter' | 'gauge' | 'histogram';

/** One label set's value as a scrape reads it. */
export interface Reading {
  labels: Record<string, string>;
  cell: SampleCell | GaugeCell | number;
}

interface PromValue {
  value: number;
  labels: Record<string, string>;
  metricName?: string;
}

/** The settings of the server's `telemetry` block that change what a scrape answers. */
export interface TelemetryNaming {
  /** go-metrics' EnableHostname: gauges are named `<service>.<host>.<rest>` */
  hostname?: string;
}

let naming: TelemetryNaming = {};

/** Sets how gauges are named from here on (the server's `disable_hostname`). */
export function setTelemetryNaming(next: TelemetryNaming): void {
  naming = next;
}

/** A gauge's name as go-metrics gives it: the host name after the service's segment, unless disabled. */
function gaugeName(name: string): string {
  if (!naming.hostname) return name;
  const dot = name.indexOf('.');
  return `${name.slice(0, dot)}.${naming.hostname}${name.slice(dot)}`;
}

/** The Prometheus name of a go-metrics name: what is not a letter, digit or `_` becomes `_`. */
export const promName = (name: string): string => name.replace(/[^a-zA-Z0-9_]/g, '_');

/** A series: one name, its label names, and a cell per label set. */
export abstract class Series<C> {
  private readonly cells = new Map<string, { labels: Record<string, string>; cell: C }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly kind: Kind,
    readonly labelNames: readonly string[],
  ) {
    // The registry reads only name, help, type and get(): a series need not be one of prom-client's classes.
    registry.registerMetric(this.promMetric() as unknown as Metric);
    series.push(this);
  }

  protected abstract make(): C;

  /** The cell of these label values (in `labelNames` order): look it up once and keep it. */
  child(...values: string[]): C {
    if (values.length !== this.labelNames.length) throw new Error(`metric ${this.name}: expected labels ${this.labelNames.join(', ')}`);
    const key = values.join('\u0000');
    let held = this.cells.get(key);
    if (!held) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i]));
      held = { labels, cell: this.make() };
      this.cells.set(key, held);
    }
    return held.cell;
  }

  /** Every label set's cell, for a scrape. */
  async read(): Promise<Reading[]> {
    return [...this.cells.values()] as Reading[];
  }

  /** The name a scrape gives the series: gauges may carry the host name. */
  scrapedName(): string {
    return this.kind === 'gauge' ? gaugeName(this.name) : this.name;
  }

  /** The shape prom-client's registry reads (`get()` is called at each scrape). */
  private promMetric() {
    return {
      name: promName(this.name),
      help: this.help,
      type: this.kind,
      aggregator: 'sum' as const,
      get: async () => {
        const name = promName(this.scrapedName());
        return { name, help: this.help, type: this.kind, aggregator: 'sum' as const, values: promValues(name, await this.read()) };
      },
      reset: () => undefined,
    };
  }
}

function promValues(name: string, readings: Reading[]): PromValue[] {
  const out: PromValue[] = [];
  for (const { labels, cell } of readings) {
    if (typeof cell === 'number') out.push({ value: cell, labels });
    else if (cell instanceof GaugeCell) out.push({ value: cell.value, labels });
    else if (cell instanceof HistogramCell) {
      let below = 0;
      DURATION_BUCKETS_MS.forEach((bound, i) => {
        below += cell.buckets[i];
        out.push({ metricName: `${name}_bucket`, value: below, labels: { ...labels, le: String(bound) } });
      });
      out.push({ metricName: `${name}_bucket`, value: cell.count, labels: { ...labels, le: '+Inf' } });
      out.push({ metricName: `${name}_sum`, value: cell.sum, labels });
      out.push({ metricName: `${name}_count`, value: cell.count, labels });
    } else out.push({ value: cell.sum, labels });
  }
  return out;
}

export class Counter extends Series<CounterCell> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'counter', labelNames);
  }

  protected make(): CounterCell {
    return new CounterCell();
  }
}

export class Histogram extends Series<HistogramCell> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'histogram', labelNames);
  }

  protected make(): HistogramCell {
    return new HistogramCell();
  }
}

export class Gauge extends Series<GaugeCell> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
  }

  protected make(): GaugeCell {
    return new GaugeCell();
  }
}

/** What a scrape-time gauge answers: one value, or one per label set (values in `labelNames` order). */
export type GaugeReading = number | undefined | Iterable<readonly [values: readonly string[], value: number]>;

/** A gauge computed when scraped, never on writes; `read` answering undefined leaves it out. */
export class ScrapeGauge extends Series<never> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly compute: () => GaugeReading | Promise<GaugeReading>,
  ) {
    super(name, help, 'gauge', labelNames);
  }

  protected make(): never {
    throw new Error(`metric ${this.name} is computed when scraped`);
  }

  override async read(): Promise<Reading[]> {
    const got = await this.compute();
    if (got === undefined) return [];
    if (typeof got === 'number') return [{ labels: {}, cell: got }];
    const out: Reading[] = [];
    for (const [values, value] of got) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i]));
      out.push({ labels, cell: value });
    }
    return out;
  }
}

export const gaugeAt = (name: string, help: string, labelNames: readonly string[], compute: () => GaugeReading | Promise<GaugeReading>): ScrapeGauge =>
  new ScrapeGauge(name, help, labelNames, compute);

let measuringProcess = false;

/**
 * Starts prom-client's process metrics (CPU, memory, handles, GC, event-loop lag), once per process:
 * they run timers and observers, which only a server wants.
 */
export function measureProcess(): void {
  if (measuringProcess) return;
  measuringProcess = true;
  collectDefaultMetrics({ register: registry });
}
