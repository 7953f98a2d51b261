/**
 * The stored config/client of a mount. The secret key is sealed at rest (the seal's context binds it to
 * this mount's entry, so a sealed value copied elsewhere does not open) and only this module opens it.
 */
import type { SecretsContext } from '../../context.js';
import type { CloudClientConfig } from '../../../cloud/provider.js';
import { Conflict } from '../../../shared/errors.js';
import { deleteEntry, readEntry, updateEntry } from './mount-storage.js';

export interface ClientConfig {
  max_retries: number;
  access_key: string;
  endpoint: string;
  iam_endpoint: string;
  sts_endpoint: string;
  sts_region: string;
  use_sts_region_from_client: boolean;
  iam_server_id_header_value: string;
  allowed_sts_header_values: string[];
}

interface StoredClientConfig extends ClientConfig {
  /** sealed; '' when no secret key is configured */
  secret_key_sealed: string;
}

export const CLIENT_CONFIG_ENTRY = 'config/client';

const sealContext = (accessor: string) => `auth-cloud/${accessor}/${CLIENT_CONFIG_ENTRY}/secret_key`;

/** The configuration without its secret, as read returns it; undefined when none is stored. */
export function readClientConfig(services: SecretsContext, accessor: string): ClientConfig | undefined {
  const stored = readEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY);
  if (!stored) return undefined;
  const { secret_key_sealed: _sealed, ...config } = stored;
  return config;
}

/** What the provider clients are built from, secret key opened. */
export function providerClientConfig(services: SecretsContext, accessor: string): CloudClientConfig {
  const stored = readEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY);
  if (!stored) return {};
  return {
    access_key: stored.access_key || undefined,
    secret_key: stored.secret_key_sealed ? services.seal.decrypt(stored.secret_key_sealed, sealContext(accessor)) : undefined,
    endpoint: stored.endpoint || undefined,
    iam_endpoint: stored.iam_endpoint || undefined,
    sts_endpoint: stored.sts_endpoint || undefined,
    sts_region: stored.sts_region || undefined,
    max_retries: stored.max_retries,
  };
}

/**
 * Read-modify-write in one transaction, so concurrent partial updates keep each other's fields. `change`
 * gets the stored configuration (undefined when there is none) and whether a secret key is stored, and
 * may throw to store nothing. The sealed secret is kept unless `secretKey` is given ('' removes it).
 */
export async function updateClientConfig(
  services: SecretsContext,
  accessor: string,
  change: (current: ClientConfig | undefined, hasSecret: boolean) => ClientConfig,
  secretKey?: string,
): Promise<{ config: ClientConfig; hasSecret: boolean }> {
  const stored = await updateEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY, (current) => {
    const { secret_key_sealed: keptSealed = '', ...fields } = current ?? {};
    const config = change(current ? (fields as ClientConfig) : undefined, keptSealed !== '');
    const sealed = secretKey === undefined ? keptSealed : secretKey ? services.seal.encrypt(secretKey, sealContext(accessor)) : '';
    return { ...config, secret_key_sealed: sealed };
  });
  const { secret_key_sealed: sealed, ...config } = stored;
  return { config, hasSecret: sealed !== '' };
}

/**
 * rotate-root's compare-and-set: stores the new key pair only while access_key is still `expected`, so a
 * config/client write or another rotation that happened meanwhile is not overwritten (Conflict instead).
 */
export async function replaceStaticKeys(services: SecretsContext, accessor: string, expected: string, accessKey: string, secretKey: string): Promise<void> {
  await updateEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY, (current) => {
    if (!current || current.access_key !== expected) {
      throw new Conflict(`config/client changed while rotate-root was running (access_key is no longer ${expected}); the new key was not stored`);
    }
    return { ...current, access_key: accessKey, secret_key_sealed: services.seal.encrypt(secretKey, sealContext(accessor)) };
  });
}

export async function deleteClientConfig(services: SecretsContext, accessor: string): Promise<void> {
  await deleteEntry(services.store, accessor, CLIENT_CONFIG_ENTRY);
}
