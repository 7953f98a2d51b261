/** A mount as Vault's sys/auth and sys/mounts answer it; `config` is the table's own (auth mounts add token_type). */
import type { MountBase, MountEntry } from '../mounts/mount-service.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';

export function mountInfo(m: MountBase, config: Record<string, unknown>, version: string): Record<string, unknown> {
  return {
    accessor: m.accessor,
    config,
    description: m.description,
    external_entropy_access: m.externalEntropyAccess ?? false,
    local: m.local,
    options: m.options,
    // Every engine is built in: no plugin version was asked for, and the one running is the server's.
    plugin_version: '',
    running_plugin_version: `v${version}+builtin.svc`,
    running_sha256: '',
    seal_wrap: m.sealWrap,
    type: m.type,
    uuid: m.uuid,
  };
}

export function secretMountInfo(m: SecretMountEntry, version: string): Record<string, unknown> {
  return mountInfo(m, { default_lease_ttl: m.config.defaultLeaseTtl, max_lease_ttl: m.config.maxLeaseTtl, force_no_cache: m.config.forceNoCache }, version);
}

export function authMountInfo(m: MountEntry, version: string): Record<string, unknown> {
  return mountInfo(m, { default_lease_ttl: m.config.defaultLeaseTtl, max_lease_ttl: m.config.maxLeaseTtl, token_type: m.config.tokenType }, version);
}
