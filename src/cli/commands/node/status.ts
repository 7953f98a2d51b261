import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['node', 'status'],
  synopsis: 'Display status information about nodes',
  usage: 'svc node status [options] [NODE]',
  description:
    'Without a node, lists the client nodes. With a node ID or a unique ID prefix (at least two ' +
    'characters), shows the node: its pool, datacenter, eligibility and status, its drivers, its recent ' +
    'events, the resources its running allocations reserve, and its allocations. -self shows the node of ' +
    'the server the command talks to, as Nomad shows the local agent\'s. Reading nodes needs a management token.',
  examples: [
    { command: 'svc node status' },
    { command: 'svc node status 4f1c', description: 'One node' },
    { command: 'svc node status -self', description: "The server's own node" },
    { command: 'svc node status -stats -self', description: 'With resource utilization' },
    { command: 'svc node status -verbose -json', description: 'The node list as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown node, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'verbose', type: 'bool', description: 'Full IDs, node addresses and versions; for one node its drivers, attributes and meta.' },
    { name: 'short', type: 'bool', description: 'For one node: only its header and its allocations.' },
    { name: 'self', type: 'bool', description: 'Show the node of the server the command talks to.' },
    { name: 'stats', type: 'bool', description: "For one node: what its allocations and the host use (CPU, memory, disk), and the host's per-CPU, memory and disk figures." },
  ],
  args: [{ name: 'node', description: 'A node ID or a unique prefix of one (none with -self).', complete: 'node' }],
  run: async (ctx) => (await import('./status.run.js')).nodeStatus(ctx),
});
