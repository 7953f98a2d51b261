/** The services of a namespace, or of every namespace, as `svc service list` and `svc service info` read them. */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { formatTable } from '../../output/format.js';
import { apiFailure } from '../../resolve/alloc.js';

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
