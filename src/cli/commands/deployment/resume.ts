import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['deployment', 'resume'],
  synopsis: 'Resume a paused deployment',
  usage: 'svc deployment resume [options] DEPLOYMENT',
  description:
    'Resumes a paused deployment, then follows the evaluation the server creates to carry on with the ' +
    'replacements the pause held back, unless -detach.',
  examples: [{ command: 'svc deployment resume 3eefc5eb' }, { command: 'svc deployment resume -detach 3eef' }],
  exitCodes: {
    0: 'the deployment was resumed',
    1: 'an error, an unknown deployment, a prefix matching several, or a deployment that already ended',
    2: 'the evaluation could not place some allocations',
  },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Return at once instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'deployment', description: 'A deployment ID or a unique prefix of one.', required: true, complete: 'deployment' }],
  run: async (ctx) => (await import('./resume.run.js')).deploymentResume(ctx),
});
