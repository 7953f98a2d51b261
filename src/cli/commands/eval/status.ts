import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['eval', 'status'],
  synopsis: 'Display evaluation status and placement failure reasons',
  usage: 'svc eval status [options] EVAL',
  description:
    'Shows an evaluation (an ID or a unique ID prefix of at least two characters): its status, what ' +
    'triggered it, and, when it could not place every allocation, the reasons per task group: nodes excluded ' +
    'by constraints, resources exhausted. -monitor follows an evaluation that is still running.',
  examples: [
    { command: 'svc eval status 5e8f3a2c' },
    { command: 'svc eval status -json 5e8f', description: 'The evaluation as JSON' },
    { command: 'svc eval status -monitor 5e8f', description: 'Follow it to the end' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown evaluation, or a prefix matching several', 2: 'with -monitor: allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'verbose', type: 'bool', description: 'Full IDs, absolute times, and the previous, next and blocked evaluations.' },
    { name: 'monitor', type: 'bool', description: 'Follow the evaluation until it finishes, as `svc job run` does.' },
  ],
  args: [{ name: 'eval', description: 'An evaluation ID or a unique prefix of one.', required: true, complete: 'eval' }],
  run: async (ctx) => (await import('./status.run.js')).evalStatus(ctx),
});
