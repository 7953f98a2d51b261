/** The identity backend, mounted at identity/: entities, groups, their aliases, and lookups. */
import type { Backend } from '../framework/path.js';
import { entityPaths } from './path-entity.js';
import { entityAliasPaths } from './path-entity-alias.js';
import { groupPaths } from './path-group.js';
import { groupAliasPaths } from './path-group-alias.js';
import { lookupPaths } from './path-lookup.js';

export const identityBackend: Backend = {
  type: 'identity',
  description:
    'The identity store: entities, the entity aliases that link auth-mount identities to them, groups of ' +
    'entities and of groups whose policies their members\' tokens gain, group aliases, and lookups.',
  paths: [...entityPaths, ...entityAliasPaths, ...groupPaths, ...groupAliasPaths, ...lookupPaths],
};
