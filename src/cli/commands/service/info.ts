import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['service', 'info'],
  synopsis: 'Display the registrations of a service',
  usage: 'svc service info [options] SERVICE',
  description:
    'Shows the registrations of one service (its name or a unique prefix of one), sorted by job: the job, ' +
    'the address and port, the tags, the node and the allocation. -verbose shows each registration in full.',
  examples: [
    { command: 'svc service info web' },
    { command: 'svc service info -verbose web', description: 'Every field of each registration' },
    { command: 'svc service info -json web', description: 'The registrations as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, or a name no service has or several services start with' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [{ name: 'verbose', type: 'bool', description: 'Show each registration in full, with full IDs.' }],
  args: [{ name: 'service', description: 'A service name or a unique prefix of one.', complete: 'service' }],
  run: async (ctx) => (await import('./info.run.js')).serviceInfo(ctx),
});
