/**
 * `svc agent-info`: the server's stats sections, as `nomad agent-info` prints them (sections and keys
 * sorted, `  key = value`), or with -json the whole answer of GET /v1/agent/self. The command's
 * declaration is in src/cli/commands/agent/info.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { ApiError } from '../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../command-failure.js';
import { agentSelf } from '../../api/agent.js';

export function agentInfo(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const info = await agentSelf(clientFor(ctx)).catch((err: unknown) => {
      if (err instanceof ApiError) throw new CommandFailure(`Error querying agent info: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    });
    if (ctx.flags.json === true) {
      ctx.io.out(JSON.stringify(info, null, 4));
      return 0;
    }
    const lines: string[] = [];
    for (const section of Object.keys(info.stats ?? {}).sort()) {
      lines.push(section);
      const values = info.stats[section];
      for (const key of Object.keys(values).sort()) lines.push(`  ${key} = ${values[key]}`);
    }
    if (lines.length > 0) ctx.io.out(lines.join('\n'));
    return 0;
  });
}
