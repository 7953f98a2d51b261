import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['deployment', 'fail'],
  synopsis: 'Manually fail a deployment',
  usage: 'svc deployment fail [options] DEPLOYMENT',
  description:
    'Marks a running or paused deployment as failed, so no further allocations are replaced. When a task ' +
    'group of the deployment has auto_revert, the job\'s latest stable version is registered again, and ' +
    'the command says which version it rolls back to.',
  examples: [{ command: 'svc deployment fail 3eefc5eb' }],
  exitCodes: { 0: 'the deployment was failed', 1: 'an error, an unknown deployment, a prefix matching several, or a deployment that already ended' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Return at once instead of following an evaluation the server creates.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'deployment', description: 'A deployment ID or a unique prefix of one.', required: true, complete: 'deployment' }],
  run: async (ctx) => (await import('./fail.run.js')).deploymentFail(ctx),
});
