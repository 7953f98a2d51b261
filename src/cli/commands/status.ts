import { defineCommand } from '../define.js';
import { clientFor } from '../client-from-flags.js';

export default defineCommand({
  path: ['status'],
  synopsis: 'Print the status of the server',
  usage: 'svc status [options]',
  description: 'Asks the server for its health (GET /v1/sys/health; no token needed) and prints it.',
  exitCodes: { 0: 'the server is up', 1: 'an error, such as an unreachable server', 2: 'the server is sealed' },
  family: 'local',
  flagSets: ['http', 'output'],
  async run(ctx) {
    const answer = await clientFor(ctx).request('GET', '/v1/sys/health');
    const health = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
    const { renderData, renderSecret } = await import('../output/format.js');
    const format = ctx.flags.format as 'table' | 'json' | 'yaml';
    const field = ctx.flags.field as string | undefined;
    // As `vault status`: machine formats print the health fields themselves, not an envelope.
    if (format !== 'table' && !field) await renderData(ctx.io, health, format);
    else {
      const data = {
        Initialized: health.initialized,
        Sealed: health.sealed,
        Version: health.version,
        'Cluster Name': health.cluster_name,
        'Server Time (UTC)': new Date(Number(health.server_time_utc) * 1000).toISOString(),
      };
      await renderSecret(ctx.io, { data: field ? health : data }, { format, field });
    }
    return health.sealed === true ? 2 : 0;
  },
});
