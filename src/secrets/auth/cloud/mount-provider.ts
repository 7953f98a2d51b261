/**
 * One provider per cloud mount, built from its config/client and config/sts entries. Built on first use
 * and kept, so cached credentials, assumed roles and the default account survive between requests;
 * dropped whenever the mount's client configuration changes (forgetCloudProvider).
 */
import type { Services } from '../../../server/services.js';
import { cloudProvider, type CloudProvider } from '../../../cloud/provider.js';
import { providerClientConfig } from './client-config.js';
import { stsRoleFor } from './path-config-sts.js';

const providers = new WeakMap<Services, Map<string, CloudProvider>>();

export function cloudProviderFor(services: Services, accessor: string): CloudProvider {
  let byMount = providers.get(services);
  if (!byMount) providers.set(services, (byMount = new Map()));
  let provider = byMount.get(accessor);
  if (!provider) {
    provider = cloudProvider(providerClientConfig(services, accessor), services.config.cloud.env, {
      stsRoleFor: (account) => stsRoleFor(services.store, accessor, account),
      metadata: { endpoint: services.config.cloud.metadataEndpoint },
    });
    byMount.set(accessor, provider);
  }
  return provider;
}

/** Call after config/client changes or is deleted, after rotate-root, and when the mount goes away. */
export function forgetCloudProvider(services: Services, accessor: string): void {
  providers.get(services)?.delete(accessor);
}
