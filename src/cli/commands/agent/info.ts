import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['agent-info'],
  synopsis: 'Display status information about the server',
  usage: 'svc agent-info [options]',
  description:
    'Prints the server\'s stats (GET /v1/agent/self) as Nomad\'s agent-info does, one section per block ' +
    'with its keys sorted: client (the node the server runs: node_id, known_servers, heartbeat_ttl, ' +
    'num_allocations; absent with -client=false), nomad (server, leader, bootstrap, known_regions, ' +
    'leader_addr) and runtime (arch, cpu_count, kernel.name and the Node.js version). -json prints the ' +
    'whole answer.',
  examples: [{ command: 'svc agent-info' }, { command: 'svc agent-info -json' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  run: async (ctx) => (await import('./info.run.js')).agentInfo(ctx),
});
