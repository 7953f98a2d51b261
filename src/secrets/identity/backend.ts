/** The identity backend, mounted at identity/: entities and entity aliases. */
import type { Backend } from '../framework/path.js';
import { entityPaths } from './path-entity.js';
import { entityAliasPaths } from './path-entity-alias.js';
import { lookupPaths } from './path-lookup.js';

export const identityBackend: Backend = {
  type: 'identity',
  description: 'The identity store: entities, the entity aliases that link auth-mount identities to them, and entity lookups.',
  paths: [...entityPaths, ...entityAliasPaths, ...lookupPaths],
};
