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

/** The config Vault answers for an engine: the TTLs and force_no_cache always, the other settings once set. */
export function secretMountInfo(m: SecretMountEntry, version: string): Record<string, unknown> {
  const c = m.config;
  const config: Record<string, unknown> = { default_lease_ttl: c.defaultLeaseTtl, max_lease_ttl: c.maxLeaseTtl, force_no_cache: c.forceNoCache };
  if (c.auditNonHmacRequestKeys) config.audit_non_hmac_request_keys = c.auditNonHmacRequestKeys;
  if (c.auditNonHmacResponseKeys) config.audit_non_hmac_response_keys = c.auditNonHmacResponseKeys;
  if (c.listingVisibility) config.listing_visibility = c.listingVisibility;
  if (c.passthroughRequestHeaders) config.passthrough_request_headers = c.passthroughRequestHeaders;
  if (c.allowedResponseHeaders) config.allowed_response_headers = c.allowedResponseHeaders;
  return mountInfo(m, config, version);
}

export function authMountInfo(m: MountEntry, version: string): Record<string, unknown> {
  return mountInfo(m, { default_lease_ttl: m.config.defaultLeaseTtl, max_lease_ttl: m.config.maxLeaseTtl, token_type: m.config.tokenType }, version);
}
