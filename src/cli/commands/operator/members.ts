import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';
import type { HaNode } from '../../../cluster/member-views.js';

/** Go's time.RFC3339 of a timestamp the server sent: whole seconds, its zone kept. */
function rfc3339Seconds(time: string): string {
  return time.replace(/^(.*T\d\d:\d\d:\d\d)\.\d+(Z|[+-]\d\d:\d\d)$/, '$1$2');
}

/** A node as Vault's client decodes it, so -format=json prints Vault's fields in Vault's order. */
function vaultNode(n: HaNode): HaNode {
  return {
    hostname: n.hostname,
    api_address: n.api_address,
    cluster_address: n.cluster_address,
    active_node: n.active_node,
    last_echo: n.last_echo ?? null,
    version: n.version,
    ...(n.upgrade_version ? { upgrade_version: n.upgrade_version } : {}),
    ...(n.redundancy_zone ? { redundancy_zone: n.redundancy_zone } : {}),
  };
}

export default defineCommand({
  path: ['operator', 'members'],
  synopsis: 'Returns the list of nodes in the cluster',
  usage: 'svc operator members [options]',
  description:
    'Lists the servers of the cluster (sys/ha-status), the active node first: host name, API and cluster ' +
    'address, whether it is the active node (the leader), its version, and when a standby last reported ' +
    'in. A server that stopped is not listed; one that failed is listed for a day. With -format=json or ' +
    'yaml it prints the nodes under "Nodes". Needs "read" on sys/ha-status.',
  examples: [{ command: 'svc operator members' }, { command: 'svc operator members -format=json', description: 'Print the nodes as JSON' }],
  exitCodes: { 0: 'the servers were listed', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  async run(ctx) {
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by operator members; use -format=json');
    const { haStatus } = await import('../../../api/cluster.js');
    const nodes = (await haStatus(clientFor(ctx))).map(vaultNode);
    const format = ctx.flags.format as OutputFormat;
    const { renderData, renderTable } = await import('../../output/format.js');
    if (format !== 'table') {
      await renderData(ctx.io, { Nodes: nodes }, format);
      return 0;
    }
    const headers = ['Host Name', 'API Address', 'Cluster Address', 'Active Node', 'Version', 'Upgrade Version', 'Redundancy Zone', 'Last Echo'];
    const rows = nodes.map((n) => [
      n.hostname,
      n.api_address,
      n.cluster_address,
      String(n.active_node),
      n.version,
      n.upgrade_version ?? '',
      n.redundancy_zone ?? '',
      n.last_echo ? rfc3339Seconds(n.last_echo) : '',
    ]);
    renderTable(ctx.io, headers, rows, { dashes: true });
    return 0;
  },
});
