/** The system backend, mounted at sys/: health, the cluster's servers, ACL policies, auth mounts, capabilities, audit hashes. */
import type { Backend } from '../framework/path.js';
import { healthPaths } from './path-health.js';
import { policyPaths } from './path-policies.js';
import { authPaths } from './path-auth.js';
import { authTunePaths } from './path-auth-tune.js';
import { capabilitiesPaths } from './path-capabilities.js';
import { auditHashPaths } from './path-audit-hash.js';
import { haPaths } from './path-ha.js';

export const sysBackend: Backend = {
  type: 'system',
  description: 'System endpoints: health, the cluster\'s servers and leader, ACL policies, auth methods, capabilities, audit hashes.',
  paths: [...healthPaths, ...haPaths, ...policyPaths, ...authTunePaths, ...authPaths, ...capabilitiesPaths, ...auditHashPaths],
};
