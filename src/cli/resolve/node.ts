/** Node ID prefixes, for the node commands, and the node list table that names the candidates. */
import type { ApiClient } from '../../api/http/client.js';
import { listNodes, type NodeStub } from '../../api/nodes.js';
import { formatTable } from '../output/format.js';
import { idLength, limit } from '../output/nomad.js';
import { resolveByPrefix } from '../prefix.js';

/** `ID  Node Pool  DC  Name  Class  [Address  Version]  Drain  Eligibility  Status` */
export function nodeListTable(nodes: NodeStub[], verbose: boolean): string {
  const length = idLength(verbose);
  return formatTable(
    ['ID', 'Node Pool', 'DC', 'Name', 'Class', ...(verbose ? ['Address', 'Version'] : []), 'Drain', 'Eligibility', 'Status'],
    nodes.map((n) => [
      limit(n.ID, length),
      n.NodePool,
      n.Datacenter,
      n.Name,
      n.NodeClass,
      ...(verbose ? [n.Address, n.Version] : []),
      String(n.Drain),
      n.SchedulingEligibility,
      n.Status,
    ]),
  );
}

export async function resolveNode(client: ApiClient, typed: string, verbose: boolean): Promise<NodeStub> {
  return resolveByPrefix<NodeStub>(
    {
      plural: 'nodes',
      uuid: true,
      notFound: (prefix) => `No node(s) with prefix "${prefix}" found`,
      list: (prefix) => listNodes(client, prefix),
      idOf: (n) => n.ID,
      table: (nodes) => nodeListTable(nodes, verbose),
    },
    typed,
  );
}
