/** The token auth method, mounted at auth/token/: Vault's token endpoints, in match order. */
import type { Backend } from '../framework/path.js';
import { accessorsPaths } from './path-accessors.js';
import { createPaths } from './path-create.js';
import { lookupPaths } from './path-lookup.js';
import { renewPaths } from './path-renew.js';
import { revokePaths } from './path-revoke.js';
import { rolesPaths } from './path-roles.js';
import { tidyPaths } from './path-tidy.js';

export const tokenBackend: Backend = {
  type: 'token',
  description: 'Token based credentials: create, look up, renew and revoke tokens; token roles; tidy.',
  paths: [...accessorsPaths, ...createPaths, ...lookupPaths, ...renewPaths, ...revokePaths, ...rolesPaths, ...tidyPaths],
};
