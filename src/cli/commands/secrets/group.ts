/** The `secrets` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const secretsGroup = defineGroup({
  path: ['secrets'],
  synopsis: 'Interact with secrets engines',
  description: 'Secrets engines, each mounted at a path of its own: "kv" keeps the secrets `svc kv` reads and writes.',
  load: () => import('./index.js'),
});

