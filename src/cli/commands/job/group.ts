/** The `job` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const jobGroup = defineGroup({
  path: ['job'],
  synopsis: 'Interact with jobs',
  description:
    'Jobs are what the scheduler runs. Job files written for Nomad (HCL2, HCL-JSON or API JSON) are read ' +
    'unchanged. Jobs may be named by ID or by a unique ID prefix.',
  load: () => import('./index.js'),
});
