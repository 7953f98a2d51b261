import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'status'],
  synopsis: 'Display allocation status information and metadata',
  usage: 'svc alloc status [options] ALLOC',
  description:
    'Shows an allocation (an ID or a unique ID prefix of at least two characters): where it runs, its ' +
    'desired and client status, its addresses, and per task its state, resources and recent events (newest ' +
    'first). -short shows one line per task instead.',
  examples: [
    { command: 'svc alloc status 9f2c7a11' },
    { command: 'svc alloc status -short 9f2c', description: 'One line per task' },
    { command: 'svc alloc status -stats 9f2c', description: 'With resource usage' },
    { command: 'svc alloc status -json 9f2c', description: 'The allocation as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown allocation, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'short', type: 'bool', description: 'Show one line per task (its last event) instead of the task details.' },
    { name: 'verbose', type: 'bool', description: 'Full IDs, absolute times, and the placement metrics.' },
    { name: 'stats', type: 'bool', description: "Show each task's resource usage (CPU MHz, memory) beside what it was given; with -verbose, every figure measured." },
  ],
  args: [{ name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' }],
  run: async (ctx) => (await import('./status.run.js')).allocStatus(ctx),
});
