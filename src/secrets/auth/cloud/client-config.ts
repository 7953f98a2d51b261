/**
 * The stored config/client of a mount. The secret key is sealed at rest (the seal's context binds it to
 * this mount's entry, so a sealed value copied elsewhere does not open) and only this module opens it.
 */
import type { Services } from '../../../server/services.js';
import type { CloudClientConfig } from '../../../cloud/provider.js';
import { deleteEntry, readEntry, writeEntry } from './mount-storage.js';

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
export function readClientConfig(services: Services, accessor: string): ClientConfig | undefined {
  const stored = readEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY);
  if (!stored) return undefined;
  const { secret_key_sealed: _sealed, ...config } = stored;
  return config;
}

/** What the provider clients are built from, secret key opened. */
export function providerClientConfig(services: Services, accessor: string): CloudClientConfig {
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

/** Whether a secret key is stored (rotate-root needs static credentials). */
export function hasSecretKey(services: Services, accessor: string): boolean {
  return Boolean(readEntry<StoredClientConfig>(services.store, accessor, CLIENT_CONFIG_ENTRY)?.secret_key_sealed);
}

export async function writeClientConfig(services: Services, accessor: string, config: ClientConfig, secretKey: string): Promise<void> {
  const stored: StoredClientConfig = { ...config, secret_key_sealed: secretKey ? services.seal.encrypt(secretKey, sealContext(accessor)) : '' };
  await writeEntry(services.store, accessor, CLIENT_CONFIG_ENTRY, stored);
}

export async function deleteClientConfig(services: Services, accessor: string): Promise<void> {
  await deleteEntry(services.store, accessor, CLIENT_CONFIG_ENTRY);
}
