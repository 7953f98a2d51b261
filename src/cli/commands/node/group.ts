/** The `node` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const nodeGroup = defineGroup({
  path: ['node'],
  synopsis: 'Interact with nodes',
  description:
    'Nodes are the machines that run allocations: `svc server` runs one in the same process. Nodes may be ' +
    'named by ID or by a unique ID prefix. Reading nodes needs a management token.',
  load: () => import('./index.js'),
});
