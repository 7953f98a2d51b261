/** The `identity` group, declared apart from its commands: the CLI's table of contents lists it on every start. */
import { defineGroup } from '../../define.js';

export const identityGroup = defineGroup({
  path: ['identity'],
  synopsis: 'Interact with the identity store',
  description:
    'The identity store knows who is behind a token. An entity is one person or machine; an entity ' +
    'alias links an identity in one auth mount (a name plus the mount\'s accessor) to an entity. Logins ' +
    'create both as needed, and the entity\'s policies are added to every token it gets. Changing an ' +
    'entity or alias can grant privileges, so give write access to identity/ with care.',
  load: () => import('./index.js'),
});
