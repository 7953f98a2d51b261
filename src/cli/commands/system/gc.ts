import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['system', 'gc'],
  synopsis: 'Run the system garbage collection process',
  usage: 'svc system gc [options]',
  description:
    'Collects, at once and whatever their age, every finished evaluation with its allocations, every ' +
    'finished deployment and every dead job (with its versions, evaluations and allocations; nodes then ' +
    'remove those allocations\' directories). A batch job that still exists keeps its history. The server ' +
    'also collects on its own every 5 minutes, once things have been finished for Nomad\'s thresholds ' +
    '(evaluations and deployments 1 hour, jobs 4 hours). Needs a management token. Prints nothing on success.',
  examples: [{ command: 'svc system gc' }],
  exitCodes: { 0: 'collected', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  run: async (ctx) => (await import('./gc.run.js')).systemGc(ctx),
});
