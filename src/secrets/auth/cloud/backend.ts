/**
 * The `cloud` auth method: its paths in order, and the re-check its tokens get on renewal. Deprecated
 * path names are served as aliases of their current paths, with a warning naming the current one.
 * createCloudMethod builds it for one server, with the state its paths share (cloud-state.ts).
 */
import type { PathDef } from '../../framework/path.js';
import { configIdentityPaths } from './path-config-identity.js';
import { configStsPaths } from './path-config-sts.js';
import { configTidyPaths } from './path-config-tidy.js';
import { configCertificatePaths } from './path-config-certificate.js';
import { configClientPaths } from './path-config-client.js';
import { configRotateRootPaths } from './path-config-rotate-root.js';
import { rolePaths } from './path-role.js';
import { roleTagPaths } from './path-role-tag.js';
import { roleTagDenyListPaths } from './path-roletag-denylist.js';
import { identityAccessListPaths } from './path-identity-accesslist.js';
import { tidyPaths } from './path-tidy.js';
import { loginPaths } from './path-login.js';
import { renewCloudToken } from './renew.js';
import type { AuthMethod } from '../auth-method.js';
import { createCloudState, type CloudState } from './cloud-state.js';

/** The deprecated path names Vault's aws method still serves → their current names (as path prefixes). */
export const DEPRECATED_NAMES: ReadonlyArray<[string, string]> = [
  ['config/tidy/identity-whitelist', 'config/tidy/identity-accesslist'],
  ['config/tidy/roletag-blacklist', 'config/tidy/roletag-denylist'],
  ['roletag-blacklist', 'roletag-denylist'],
  ['identity-whitelist', 'identity-accesslist'],
  ['tidy/identity-whitelist', 'tidy/identity-accesslist'],
  ['tidy/roletag-blacklist', 'tidy/roletag-denylist'],
];

function deprecatedAliases(paths: PathDef[]): PathDef[] {
  const out: PathDef[] = [];
  for (const [old, current] of DEPRECATED_NAMES) {
    for (const def of paths) {
      if (def.pattern !== current && !def.pattern.startsWith(`${current}/`)) continue;
      out.push({ ...def, pattern: old + def.pattern.slice(current.length), deprecatedFor: def.pattern });
    }
  }
  return out;
}

export interface CloudMethod extends AuthMethod {
  /** what the method keeps between requests: the server's periodic tidy starts through it */
  state: CloudState;
}

export function createCloudMethod(): CloudMethod {
  const state = createCloudState();
  const current: PathDef[] = [
    ...loginPaths(state),
    ...configClientPaths(state.checks.certificates),
    ...configRotateRootPaths(state.rotations),
    ...configIdentityPaths,
    ...configCertificatePaths(state.checks.certificates),
    ...configStsPaths,
    ...configTidyPaths,
    ...roleTagPaths,
    ...rolePaths(state.providers),
    ...roleTagDenyListPaths,
    ...identityAccessListPaths,
    ...tidyPaths(state.tidies),
  ];
  return {
    backend: {
      type: 'cloud',
      description: 'Log in with a cloud instance identity document or a signed caller-identity request.',
      paths: [...current, ...deprecatedAliases(current)],
      renew: (services, token) => renewCloudToken(state, services, token),
    },
    state,
    forgetMount(accessor) {
      state.providers.forget(accessor);
      state.trust.forget(accessor);
      state.fullArns.deleteWhere((key) => key.startsWith(`${accessor}/`));
    },
    async close() {
      await state.tidies.settled();
    },
  };
}
