import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['operator', 'metrics'],
  synopsis: 'Retrieve the metrics of the server',
  usage: 'svc operator metrics [options]',
  description:
    "Prints the server's metrics (GET /v1/metrics) as go-metrics' JSON, or with -format=prometheus in " +
    "Prometheus' text format (served with telemetry { prometheus_metrics = true }). Needs agent:read.",
  examples: [{ command: 'svc operator metrics -pretty' }, { command: 'svc operator metrics -format=prometheus' }],
  exitCodes: { 0: 'the metrics were printed', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'format', type: 'string', choices: ['json', 'prometheus'], default: 'json', description: 'The format: json or prometheus.' },
    { name: 'pretty', type: 'bool', description: 'Indent the JSON.' },
  ],
  run: async (ctx) => (await import('./metrics.run.js')).operatorMetrics(ctx),
});
