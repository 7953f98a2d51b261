/**
 * `svc namespace list`: the namespaces the token can access, sorted by name. The command's declaration
 * is in src/cli/commands/namespace/list.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { formatTable } from '../../output/format.js';
import { printSchedulerData } from '../../output/scheduler-output.js';

interface NamespaceStub {
  Name: string;
  Description?: string;
}

export async function namespaceList(ctx: CommandContext): Promise<number> {
  const { body } = await clientFor(ctx).scheduler<NamespaceStub[]>('GET', '/v1/namespaces');
  const namespaces = [...(body ?? [])].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
  return printSchedulerData(ctx, namespaces, () =>
    namespaces.length === 0 ? 'No namespaces found' : formatTable(['Name', 'Description'], namespaces.map((n) => [n.Name, n.Description ?? ''])),
  );
}
