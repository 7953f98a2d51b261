/**
 * `svc namespace status`: a namespace's name, description and metadata, as Nomad shows them. The
 * command's declaration is in src/cli/commands/namespace/status.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { formatKV } from '../../output/nomad.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

interface Namespace {
  Name: string;
  Description?: string;
  Meta?: Record<string, string> | null;
}

export async function namespaceStatus(ctx: CommandContext): Promise<number> {
  const name = ctx.args[0];
  const { body: ns } = await clientFor(ctx).scheduler<Namespace>('GET', `/v1/namespace/${encodeURIComponent(name)}`);
  return printSchedulerData(ctx, ns, () => {
    let out = formatKV([
      ['Name', ns.Name],
      ['Description', ns.Description ?? ''],
    ]);
    const meta = Object.keys(ns.Meta ?? {}).sort();
    if (meta.length > 0) out += '\nMetadata\n' + formatKV(meta.map((k) => [k, ns.Meta![k]]));
    return out.trimEnd();
  });
}
