/**
 * `svc service list`: the registered services with their tags, as Nomad prints them. The command's
 * declaration is in src/cli/commands/service/list.ts.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { reportingFailures } from '../command-failure.js';
import { formatTable } from '../output/format.js';
import { apiFailure } from '../resolve/alloc.js';
import { printSchedulerData } from '../output/scheduler-output.js';

export interface NamespaceServices {
  Namespace: string;
  Services: Array<{ ServiceName: string; Tags: string[] | null }>;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Service names sorted within sorted namespaces; a Namespace column when the list spans namespaces. */
export function formatServiceList(list: NamespaceServices[], allNamespaces: boolean): string {
  const headers = allNamespaces ? ['Service Name', 'Namespace', 'Tags'] : ['Service Name', 'Tags'];
  const rows: string[][] = [];
  for (const ns of [...list].sort((a, b) => byString(a.Namespace, b.Namespace))) {
    for (const s of [...ns.Services].sort((a, b) => byString(a.ServiceName, b.ServiceName))) {
      const tags = `[${[...(s.Tags ?? [])].sort(byString).join(',')}]`;
      rows.push(allNamespaces ? [s.ServiceName, ns.Namespace, tags] : [s.ServiceName, tags]);
    }
  }
  return formatTable(headers, rows);
}

export async function fetchServiceList(ctx: CommandContext): Promise<NamespaceServices[]> {
  try {
    return (await clientFor(ctx).scheduler<NamespaceServices[]>('GET', '/v1/services')).body ?? [];
  } catch (err) {
    return apiFailure('listing service registrations', err);
  }
}

export function serviceList(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const list = await fetchServiceList(ctx);
    return printSchedulerData(ctx, list, () =>
      list.every((ns) => ns.Services.length === 0) ? 'No service registrations found' : formatServiceList(list, ctx.flags.namespace === '*'),
    );
  });
}
