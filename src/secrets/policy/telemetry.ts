/** How many ACL policies are stored (Vault's vault.policy.configured.count), counted when scraped. */
import { gaugeAt } from '../../shared/metrics/registry.js';
import type { Store } from '../../storage/store.js';
import { POLICIES_TABLE } from './policy-store.js';

let watched: Store | undefined;

export function watchPolicies(store: Store): () => void {
  watched = store;
  return () => {
    if (watched === store) watched = undefined;
  };
}

gaugeAt('vault.policy.configured.count', 'ACL policies stored (the built-in root and default aside).', ['policy_type'], () => watched && [[['acl'], watched.keys(POLICIES_TABLE).length]]);
