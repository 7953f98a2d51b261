/** The secrets side's answers these pages read (each the `data` of Vault's envelope). */

export interface MountEntry {
  accessor: string;
  type: string;
  description: string;
  config: { default_lease_ttl: number; max_lease_ttl: number; token_type?: string };
  options: Record<string, string> | null;
  local: boolean;
}

/** sys/internal/ui/mounts: the mounts the token reaches, by path (with its trailing '/'). */
export interface UiMounts {
  auth: Record<string, MountEntry>;
  secret: Record<string, MountEntry>;
}

/** auth/token/lookup-self and lookup-accessor (the secret, `id`, is never shown). */
export interface TokenLookup {
  accessor: string;
  display_name: string;
  policies: string[] | null;
  identity_policies?: string[];
  entity_id: string;
  type: string;
  path: string;
  ttl: number;
  creation_ttl: number;
  expire_time: string | null;
  issue_time: string;
  num_uses: number;
  orphan: boolean;
  renewable: boolean;
  meta: Record<string, string> | null;
}

export interface TuneAnswer {
  description: string;
  default_lease_ttl: number;
  max_lease_ttl: number;
  token_type?: string;
}

export interface AliasInfo {
  name: string;
  canonical_id: string;
  mount_accessor: string;
  mount_type?: string;
  mount_path?: string;
}

export interface KvVersionMeta {
  created_time: string;
  deletion_time: string;
  destroyed: boolean;
}

export interface KvMetadata {
  current_version: number;
  oldest_version: number;
  max_versions: number;
  created_time: string;
  updated_time: string;
  versions: Record<string, KvVersionMeta>;
}

export interface KvData {
  data: Record<string, unknown> | null;
  metadata: KvVersionMeta & { version: number };
}
