/** The `operator` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const operatorGroup = defineGroup({
  path: ['operator'],
  synopsis: 'Perform operator-specific tasks',
  description: 'Look after the cluster itself: which servers it has, which of them leads, and what its metrics say.',
  load: () => import('./index.js'),
});
