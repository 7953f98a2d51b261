/**
 * sys/metrics, as Vault's: the process's metrics in go-metrics' JSON, or with `format=prometheus` in
 * Prometheus' text format (once the server's `telemetry { prometheus_metrics = true }` allows it). It
 * needs `read` on sys/metrics, unless `telemetry { unauthenticated_metrics_access = true }` opens it to
 * scrapers without a token. The path is declared unauthenticated so that the pipeline lets a request
 * without a token reach it; the handler then asks for the capability itself unless the server opens it.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { goMetricsJson, prometheusText, PROMETHEUS_CONTENT_TYPE } from '../../shared/metrics/exposition.js';
import { definePath } from '../framework/path.js';
import { PathCap } from '../policy/capabilities.js';

const FORMATS = ['', 'json', 'prometheus'];

export const metricsPaths = [
  definePath({
    pattern: 'metrics',
    fields: {
      // Its values are checked by the handler, after the token: a request without one learns nothing, not even that its format is wrong.
      format: {
        type: 'string',
        description: 'The format of the answer: "prometheus" for Prometheus\' text format; otherwise go-metrics\' JSON.',
        query: true,
      },
    },
    unauthenticated: true,
    synopsis: 'Telemetry metrics of the server.',
    description:
      'Answers the metrics of this server process, both sides of svc, as Vault does: go-metrics\' JSON (Timestamp, ' +
      'Gauges, Points, Counters, Samples) by default, Prometheus\' text format with format=prometheus (needs ' +
      'telemetry { prometheus_metrics = true }). Needs "read" on sys/metrics, unless the server sets ' +
      'telemetry { unauthenticated_metrics_access = true }.',
    operations: {
      read: {
        summary: 'Returns the metrics.',
        handler: async (req, data) => {
          const { services, caller } = req;
          if (!services.config.telemetry.unauthenticatedMetricsAccess) {
            if (!caller || !caller.acl.allows('sys/metrics', PathCap.Read)) throw new PermissionDenied();
            await services.tokens.use(caller.token);
          }
          const format = data.get<string>('format') ?? '';
          if (!FORMATS.includes(format)) throw new UserError(`invalid value ${JSON.stringify(format)} for field "format": must be one of json, prometheus`);
          if (format === 'prometheus') {
            if (!services.config.telemetry.prometheusMetrics) throw new UserError('prometheus is not enabled');
            return { text: { contentType: PROMETHEUS_CONTENT_TYPE, body: await prometheusText() } };
          }
          return { raw: await goMetricsJson() };
        },
      },
    },
  }),
];
