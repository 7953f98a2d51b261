import { defineCommand } from '../define.js';
import { clientFor } from '../client-from-flags.js';

export default defineCommand({
  path: ['status'],
  synopsis: 'Print the status of the server, or of the object an ID prefix names',
  usage: 'svc status [options] [PREFIX]',
  description:
    'Without an argument, as `vault status`: the server\'s health (GET /v1/sys/health; no token needed); ' +
    'Nomad\'s job list is `svc job status`. With an ID prefix, as `nomad status PREFIX`: the status of the ' +
    'job, allocation, node, evaluation or deployment it names.',
  examples: [{ command: 'svc status' }, { command: 'svc status example' }],
  exitCodes: { 0: 'success', 1: 'an error, or a prefix matching nothing or several', 2: 'the server is sealed' },
  family: 'local',
  flagSets: ['http', 'output'],
  args: [{ name: 'prefix', description: 'An ID, or a prefix of one, of a job, allocation, node, evaluation or deployment.' }],
  async run(ctx) {
    if (ctx.args.length > 0) return (await import('./status.run.js')).statusByPrefix(ctx);
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
