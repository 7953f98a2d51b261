import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['deployment', 'status'],
  synopsis: 'Display the status of a deployment',
  usage: 'svc deployment status [options] [DEPLOYMENT]',
  description:
    'Shows a deployment (an ID or a unique ID prefix of at least two characters): its job and job version, ' +
    'its status, and per task group how many allocations are desired, placed, healthy and unhealthy, and ' +
    'when the group must next make progress. -monitor follows the deployment until it ends, as `svc job run` ' +
    'does, and exits 0 only if it succeeded. Without a deployment, lists the deployments.',
  examples: [
    { command: 'svc deployment status 3eefc5eb' },
    { command: 'svc deployment status -monitor 3eef', description: 'Follow the deployment to its end' },
    { command: 'svc deployment status -json 3eefc5eb', description: 'The deployment as JSON' },
  ],
  exitCodes: {
    0: 'success; with -monitor, the deployment succeeded',
    1: 'an error, an unknown deployment, or a prefix matching several; with -monitor, the deployment failed or was cancelled',
  },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'verbose', type: 'bool', description: 'Show full IDs; with -monitor, also the deployment\'s allocations.' },
    { name: 'monitor', type: 'bool', description: 'Follow the deployment until it succeeds, fails or is cancelled.' },
  ],
  args: [{ name: 'deployment', description: 'A deployment ID or a unique prefix of one.', complete: 'deployment' }],
  run: async (ctx) => (await import('./status.run.js')).deploymentStatus(ctx),
});
