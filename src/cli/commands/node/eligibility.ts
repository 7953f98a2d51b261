import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['node', 'eligibility'],
  synopsis: 'Toggle scheduling eligibility for a node',
  usage: 'svc node eligibility -enable|-disable [options] NODE',
  description:
    'Marks a node eligible or ineligible for new placements. An ineligible node keeps running the ' +
    'allocations it has; the scheduler places nothing new on it (use `svc node drain` to move them off). The ' +
    'node is named by ID or by a unique ID prefix, or -self names the node of the server the command talks ' +
    'to. A draining node cannot be made eligible. Needs `node:write`.',
  examples: [
    { command: 'svc node eligibility -disable 4f1c', description: 'Stop placing new allocations on a node' },
    { command: 'svc node eligibility -enable 4f1c' },
    { command: 'svc node eligibility -disable -self', description: "The server's own node" },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown node, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'enable', type: 'bool', description: 'Make the node eligible for scheduling.' },
    { name: 'disable', type: 'bool', description: 'Make the node ineligible for scheduling.' },
    { name: 'self', type: 'bool', description: 'Set the eligibility of the node of the server the command talks to.' },
  ],
  args: [{ name: 'node', description: 'A node ID or a unique prefix of one (none with -self).', complete: 'node' }],
  run: async (ctx) => (await import('./eligibility.run.js')).nodeEligibility(ctx),
});
