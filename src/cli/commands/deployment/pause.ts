import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['deployment', 'pause'],
  synopsis: 'Pause a deployment',
  usage: 'svc deployment pause [options] DEPLOYMENT',
  description:
    'Pauses a running deployment: allocations already being replaced carry on, but no further ones are ' +
    'replaced until `svc deployment resume`.',
  examples: [{ command: 'svc deployment pause 3eefc5eb' }],
  exitCodes: { 0: 'the deployment was paused', 1: 'an error, an unknown deployment, a prefix matching several, or a deployment that already ended' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [{ name: 'verbose', type: 'bool', description: 'Show full IDs.' }],
  args: [{ name: 'deployment', description: 'A deployment ID or a unique prefix of one.', required: true, complete: 'deployment' }],
  run: async (ctx) => (await import('./pause.run.js')).deploymentPause(ctx),
});
