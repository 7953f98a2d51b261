/**
 * GET /v1/metrics, as Nomad's: the process's metrics (both sides of svc) in go-metrics' JSON, or with
 * `format=prometheus` in Prometheus' text format once `telemetry { prometheus_metrics = true }` allows
 * it (415 otherwise, as Nomad answers). It needs Nomad's `agent { policy = "read" }` (or a management
 * token) unless `telemetry { unauthenticated_metrics_access = true }` opens it to scrapers without one;
 * the route is open so that such a request reaches the handler, which checks the rule itself otherwise.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { goMetricsJson, prometheusText, PROMETHEUS_CONTENT_TYPE } from '../../shared/metrics/exposition.js';
import { defineRoute } from './route.js';

/** Nomad's CodedError(415, "Prometheus is not enabled"). */
class PrometheusNotEnabled extends UserError {
  override readonly statusCode = 415;
}

export const metricsRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/metrics',
    acl: { open: true },
    query: {
      format: {
        type: 'string',
        description: 'The format of the answer: "prometheus" for Prometheus\' text format; otherwise go-metrics\' JSON.',
        allowedValues: ['', 'json', 'prometheus'],
      },
    },
    synopsis: "The server's metrics: go-metrics' JSON (Gauges, Counters, Samples), or Prometheus' text format with format=prometheus.",
    handler: async (req) => {
      const { telemetry } = req.services.config;
      if (!telemetry.unauthenticatedMetricsAccess && (req.caller.kind !== 'token' || !req.caller.acl.allowsAgent('read'))) throw new PermissionDenied('Permission denied');
      if (req.query.get<string>('format') === 'prometheus') {
        if (!telemetry.prometheusMetrics) throw new PrometheusNotEnabled('Prometheus is not enabled');
        const text = await prometheusText();
        return { body: undefined, headers: { 'content-type': PROMETHEUS_CONTENT_TYPE }, stream: (write) => write(text) };
      }
      return { body: await goMetricsJson() };
    },
  }),
];
