/** GET /v1/metrics: the server's metrics, as go-metrics' JSON or in Prometheus' text format. */
import type { GoMetricsSummary } from '../shared/metrics/exposition.js';
import type { ApiClient } from './http/client.js';

export type { GoMetricsSummary } from '../shared/metrics/exposition.js';

export async function metricsJson(client: ApiClient): Promise<GoMetricsSummary> {
  return (await client.scheduler<GoMetricsSummary>('GET', '/v1/metrics')).body;
}

/** The text format as the server wrote it (Nomad's `?format=prometheus`, which needs telemetry { prometheus_metrics }). */
export async function metricsPrometheus(client: ApiClient): Promise<string> {
  const query = { format: 'prometheus' };
  const answer = await client.request('GET', '/v1/metrics', { query });
  const text = answer.body.toString('utf8');
  if (answer.status >= 400) throw client.apiError(answer.status, [text.trim()], client.url('/v1/metrics', query));
  return text;
}
