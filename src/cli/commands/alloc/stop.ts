import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'stop'],
  synopsis: 'Stop and reschedule a running allocation',
  usage: 'svc alloc stop [options] ALLOC',
  description:
    'Stops an allocation (an ID or a unique ID prefix) by migrating it: a follow-up evaluation stops it and ' +
    'places a replacement, linked to it, where its job still wants one (a system job\'s allocation is not ' +
    'replaced). The command follows that evaluation unless -detach.',
  examples: [{ command: 'svc alloc stop 9f2c7a11' }, { command: 'svc alloc stop -detach 9f2c', description: 'Print the follow-up evaluation ID and return' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown allocation, or a prefix matching several', 2: 'the replacement could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the follow-up evaluation ID and return instead of following it.' },
    { name: 'no-shutdown-delay', type: 'bool', description: 'Ignore the group\'s and tasks\' shutdown_delay.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' }],
  run: async (ctx) => (await import('./stop.run.js')).allocStop(ctx),
});
