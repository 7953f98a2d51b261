/** The `alloc` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const allocGroup = defineGroup({
  path: ['alloc'],
  synopsis: 'Interact with allocations',
  description:
    'An allocation is one task group of a job placed on a node, with its tasks. Allocations may be named by ' +
    'ID or by a unique ID prefix of at least two characters.',
  load: () => import('./index.js'),
});
