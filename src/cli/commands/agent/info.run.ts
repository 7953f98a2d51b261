/**
 * `svc agent-info`: the server's stats sections, as `nomad agent-info` prints them (sections and keys
 * sorted, `  key = value`), or with -json the whole answer of GET /v1/agent/self. The command's
 * declaration is in src/cli/commands/agent/info.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { agentSelf } from '../../../api/agent.js';
import { orFail } from '../../failures/api.js';

export function agentInfo(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const info = await orFail('Error querying agent info', () => agentSelf(clientFor(ctx)));
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
