/**
 * `svc operator metrics`: GET /v1/metrics printed as Nomad's operator metrics prints it, the JSON on one
 * line (indented with -pretty) or the Prometheus text as the server wrote it. The declaration is in
 * src/cli/commands/operator/metrics.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { metricsJson, metricsPrometheus } from '../../../api/metrics.js';
import { orFail } from '../../failures/api.js';
import { UsageError } from '../../../shared/errors.js';

export function operatorMetrics(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    if (ctx.flags.format === 'prometheus') {
      if (ctx.flags.pretty === true) throw new UsageError('-pretty applies to the JSON format only');
      ctx.io.out((await orFail('Error getting metrics', () => metricsPrometheus(client))).trimEnd());
      return 0;
    }
    const metrics = await orFail('Error getting metrics', () => metricsJson(client));
    ctx.io.out(ctx.flags.pretty === true ? JSON.stringify(metrics, null, 4) : JSON.stringify(metrics));
    return 0;
  });
}
