/**
 * What a scrape answers: Prometheus' text format (prom-client writes it), or the JSON go-metrics'
 * InmemSink answers Nomad's /v1/metrics and Vault's /v1/sys/metrics with. go-metrics reports the current
 * ten-second interval; these are cumulative since the process started, so Rate is the sum per second
 * over that time.
 */
import { GaugeCell, HistogramCell, registry, series, promName, type Reading } from './registry.js';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface GoMetricsGauge {
  Name: string;
  Value: number;
  Labels: Record<string, string>;
}

export interface GoMetricsSample {
  Name: string;
  Count: number;
  Rate: number;
  Sum: number;
  Min: number;
  Max: number;
  Mean: number;
  Stddev: number;
  Labels: Record<string, string>;
}

export interface GoMetricsSummary {
  Timestamp: string;
  Gauges: GoMetricsGauge[];
  Points: GoMetricsGauge[];
  Counters: GoMetricsSample[];
  Samples: GoMetricsSample[];
}

export function prometheusText(): Promise<string> {
  return registry.metrics();
}

/** Go's time.Time.String() of a UTC time to the second: `2026-12-02 06:31:06 +0000 UTC`. */
function goTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

function sampled(name: string, labels: Record<string, string>, cell: Exclude<Reading['cell'], number | GaugeCell>, uptimeSeconds: number): GoMetricsSample {
  const { count, sum } = cell;
  const variance = count > 1 ? Math.max(0, (cell.sumSquares - (sum * sum) / count) / (count - 1)) : 0;
  return {
    Name: name,
    Count: count,
    Rate: uptimeSeconds > 0 ? sum / uptimeSeconds : 0,
    Sum: sum,
    Min: count > 0 ? cell.min : 0,
    Max: count > 0 ? cell.max : 0,
    Mean: count > 0 ? sum / count : 0,
    Stddev: Math.sqrt(variance),
    Labels: labels,
  };
}

export async function goMetricsJson(now = new Date()): Promise<GoMetricsSummary> {
  const out: GoMetricsSummary = { Timestamp: goTimestamp(now), Gauges: [], Points: [], Counters: [], Samples: [] };
  const uptime = process.uptime();
  const own = new Set<string>();
  for (const s of series) {
    own.add(promName(s.name));
    const name = s.scrapedName();
    for (const { labels, cell } of await s.read()) {
      if (typeof cell === 'number') out.Gauges.push({ Name: name, Value: cell, Labels: labels });
      else if (cell instanceof GaugeCell) out.Gauges.push({ Name: name, Value: cell.value, Labels: labels });
      else (cell instanceof HistogramCell ? out.Samples : out.Counters).push(sampled(name, labels, cell, uptime));
    }
  }
  // The process metrics prom-client measures, under their Prometheus names.
  for (const metric of await registry.getMetricsAsJSON()) {
    if (own.has(metric.name)) continue;
    if (String(metric.type) === 'histogram') {
      const values = metric.values as Array<{ value: number; metricName?: string }>;
      const sum = values.find((v) => v.metricName === `${metric.name}_sum`)?.value ?? 0;
      const count = values.find((v) => v.metricName === `${metric.name}_count`)?.value ?? 0;
      out.Samples.push({ Name: metric.name, Count: count, Rate: uptime > 0 ? sum / uptime : 0, Sum: sum, Min: 0, Max: 0, Mean: count > 0 ? sum / count : 0, Stddev: 0, Labels: {} });
      continue;
    }
    // JSON has no NaN (the event-loop lag's mean before its first sample): such a value is left out.
    for (const v of metric.values) if (Number.isFinite(v.value)) out.Gauges.push({ Name: metric.name, Value: v.value, Labels: { ...(v.labels as Record<string, string>) } });
  }
  return out;
}
