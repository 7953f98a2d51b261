/**
 * The `cloud` auth method. The mount itself (accessor, aliases, enable/disable) works today; its paths
 * (config, roles, role tags, access and deny lists, tidy, login) arrive with issues 4 and 5, and until
 * then every request under the mount answers 404 "unsupported path".
 */
import type { Backend } from '../../../server/framework/path.js';

export const cloudBackend: Backend = {
  type: 'cloud',
  description: 'Log in with a cloud instance identity document or a signed caller-identity request.',
  paths: [],
};
