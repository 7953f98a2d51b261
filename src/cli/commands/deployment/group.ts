/** The `deployment` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const deploymentGroup = defineGroup({
  path: ['deployment'],
  synopsis: 'Interact with deployments',
  description:
    'A deployment is how a new version of a service job rolls out: the allocations of each task group with ' +
    'an update strategy are replaced max_parallel at a time, each batch after the last proved healthy. A ' +
    'deployment succeeds when every group is healthy (the version then becomes stable), and fails on an ' +
    'unhealthy allocation or a missed progress deadline, rolling back to the last stable version when ' +
    'auto_revert is set. Deployments may be named by ID or by a unique ID prefix.',
  load: () => import('./index.js'),
});
