/** The system backend, mounted at sys/: health, the cluster's servers, ACL policies, auth mounts, capabilities, audit hashes, metrics. */
import type { Backend } from '../framework/path.js';
import { healthPaths } from './path-health.js';
import { policyPaths } from './path-policies.js';
import { authPaths } from './path-auth.js';
import { authTunePaths } from './path-auth-tune.js';
import { capabilitiesPaths } from './path-capabilities.js';
import { auditHashPaths } from './path-audit-hash.js';
import { haPaths } from './path-ha.js';
import { sealStatusPaths } from './path-seal-status.js';
import { mountsPaths } from './path-mounts.js';
import { remountPaths } from './path-remount.js';
import { auditPaths } from './path-audit.js';
import { metricsPaths } from './path-metrics.js';
import { internalUiMountsPaths } from './path-internal-ui-mounts.js';
import { internalUiFormatPolicyPaths } from './path-internal-ui-format-policy.js';

export const sysBackend: Backend = {
  type: 'system',
  description:
    'System endpoints: health, initialisation and seal status, the cluster\'s servers and leader, ACL policies, auth methods, ' +
    'secrets engines, capabilities, audit devices and audit hashes, and the server\'s metrics.',
  paths: [...healthPaths, ...sealStatusPaths, ...haPaths, ...policyPaths, ...authTunePaths, ...authPaths, ...mountsPaths, ...remountPaths, ...capabilitiesPaths, ...auditHashPaths, ...auditPaths, ...metricsPaths, ...internalUiMountsPaths, ...internalUiFormatPolicyPaths],
};
