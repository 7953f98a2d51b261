/**
 * One provider per cloud mount, built from its config/client and config/sts entries. Built on first use
 * and kept, so cached credentials, assumed roles and the default account survive between requests; built
 * again once the configuration table's index has moved, which any server process sharing the store moves
 * when it writes config/client or config/sts (or runs rotate-root).
 */
import type { SecretsContext } from '../../context.js';
import { cloudProvider, type CloudProvider } from '../../../cloud/provider.js';
import { providerClientConfig } from './client-config.js';
import { CONFIG_TABLE } from './mount-storage.js';
import { stsRoleFor } from './path-config-sts.js';

export interface MountProviders {
  /** The mount's provider, as built from the configuration now stored. */
  get(services: SecretsContext, accessor: string): CloudProvider;
  /** The mount is gone: its provider goes too. */
  forget(accessor: string): void;
}

export function createMountProviders(): MountProviders {
  const built = new Map<string, { index: number; provider: CloudProvider }>();
  return {
    get(services, accessor) {
      // The index is read before the configuration: a write landing in between leaves an older index
      // beside the newer configuration, so the next call builds once more, never keeps a stale provider.
      const index = services.store.tableIndex(CONFIG_TABLE);
      const kept = built.get(accessor);
      if (kept?.index === index) return kept.provider;
      const provider = cloudProvider(providerClientConfig(services, accessor), services.config.cloud.env, {
        stsRoleFor: (account) => stsRoleFor(services.store, accessor, account),
        metadata: { endpoint: services.config.cloud.metadataEndpoint },
      });
      built.set(accessor, { index, provider });
      return provider;
    },
    forget(accessor) {
      built.delete(accessor);
    },
  };
}
