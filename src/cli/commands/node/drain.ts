import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['node', 'drain'],
  synopsis: 'Toggle drain mode on a given node',
  usage: 'svc node drain -enable|-disable [options] NODE',
  description:
    'Starts or cancels the drain of a node: exactly one of -enable and -disable, or -monitor alone to follow ' +
    'a drain in progress. A draining node is ineligible for new placements; its service allocations move to ' +
    'other nodes a few at a time (each group\'s migrate.max_parallel, the next ones once the replacements ' +
    'are healthy), batch allocations may finish until the deadline, and system allocations stop last. At the ' +
    'deadline whatever is left is stopped. Without -detach the command follows the drain until every ' +
    'allocation on the node has stopped; Ctrl-C stops following, not the drain. Cancelling makes the node ' +
    'eligible again unless -keep-ineligible. The node is named by ID or by a unique ID prefix (then the ' +
    'command asks for confirmation on a terminal unless -yes, and fails without a terminal unless -yes), or ' +
    '-self names the node of the server the command talks ' +
    'to. Needs `node:write`.',
  examples: [
    { command: 'svc node drain -enable -yes 4f1c', description: 'Drain a node within the default hour, following it' },
    { command: 'svc node drain -enable -deadline 30m -detach -self', description: "Drain the server's own node and return" },
    { command: 'svc node drain -enable -force -m "disk replacement" 4f1c', description: 'Stop everything on the node now' },
    { command: 'svc node drain -monitor 4f1c', description: 'Follow a drain in progress' },
    { command: 'svc node drain -disable -keep-ineligible 4f1c', description: 'Cancel the drain; place nothing new on the node' },
  ],
  exitCodes: { 0: 'the drain was set, cancelled or followed (or the confirmation was declined)', 1: 'an error, an unknown node, a prefix matching several, or a prefix without -yes where no question can be asked' },
  family: 'scheduler',
  flagSets: ['http', 'confirm'],
  flags: [
    { name: 'enable', type: 'bool', description: 'Enable draining for the node.' },
    { name: 'disable', type: 'bool', description: 'Disable draining for the node.' },
    {
      name: 'deadline',
      type: 'string',
      description: 'How long allocations may take to move off the node (a duration such as 30m); what is left then is stopped. Default 1h.',
    },
    { name: 'detach', type: 'bool', description: 'Return immediately instead of following the drain.' },
    { name: 'monitor', type: 'bool', description: 'Follow the drain in progress without changing it.' },
    { name: 'force', type: 'bool', description: 'Stop every allocation on the node now.' },
    { name: 'no-deadline', type: 'bool', description: 'Let the allocations move off the node without ever stopping them at a deadline.' },
    { name: 'ignore-system', type: 'bool', description: 'Leave system job allocations running; the drain completes without them.' },
    { name: 'keep-ineligible', type: 'bool', description: 'When cancelling the drain, keep the node ineligible for scheduling.' },
    { name: 'm', type: 'string', description: 'A message for the drain, kept in its metadata as "message" (as "cancel_message" when cancelling).' },
    { name: 'meta', type: 'strings', description: 'Metadata for the drain, key=value; may be repeated.' },
    { name: 'self', type: 'bool', description: 'Drain the node of the server the command talks to.' },
  ],
  args: [{ name: 'node', description: 'A node ID or a unique prefix of one (none with -self).', complete: 'node' }],
  run: async (ctx) => (await import('./drain.run.js')).nodeDrain(ctx),
});
