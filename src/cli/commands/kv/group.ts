/** The `kv` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const kvGroup = defineGroup({
  path: ['kv'],
  synopsis: 'Interact with the KV secrets engine',
  description:
    'Read and write the secrets of a KV secrets engine, version 1 or 2 (versioned): KEY is mount and name ' +
    '(secret/foo), or the name alone with -mount=secret.',
  load: () => import('./index.js'),
});
