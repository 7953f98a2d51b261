/**
 * KV version 1, as Vault's: any path under the mount holds one JSON object, written whole, read whole,
 * deleted outright; a LIST answers the keys and folders ('name/') right below a path. A read may block
 * until a change (blocking-read.ts). A read answers a lease_duration, as Vault's passthrough backend does,
 * for clients to re-read by (Vault's CLI prints it as refresh_interval): the secret's own "ttl" (or else
 * "lease") when it reads as a duration, else the mount's default lease TTL; never renewable, no lease ID.
 */
import { NotFound, UserError } from '../../shared/errors.js';
import type { Backend } from '../framework/path.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
import { SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../token/token-store.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { mountOf } from './mount.js';
import { childKeys } from './list.js';
import { KV_V1_TABLE, openV1, sealV1, v1Key, type SealedRecord } from './storage.js';
import { blockingParamsOf, kvIndexHeaders, waitForKvChange } from './blocking-read.js';

const PATH_FIELD = { path: { type: 'string' as const, description: 'The location of the secret, relative to the mount.' } };

/** A read's lease_duration in seconds, from the secret's "ttl" or "lease", else the mount's default lease TTL. */
function leaseOf(secret: Record<string, unknown>, mount: SecretMountEntry): number {
  const raw = Object.hasOwn(secret, 'ttl') ? secret.ttl : secret.lease;
  if (raw === '') return 0;
  const seconds = typeof raw === 'number' || typeof raw === 'string' ? parseDurationSeconds(raw) : undefined;
  if (seconds !== undefined && seconds >= 0) return Math.floor(seconds);
  return Math.min(mount.config.defaultLeaseTtl || SYSTEM_DEFAULT_TTL, mount.config.maxLeaseTtl || SYSTEM_MAX_TTL);
}

function list(req: SecretsRequest, prefix: string) {
  const mount = mountOf(req);
  return { data: { keys: childKeys(req.services.store.keys(KV_V1_TABLE, `${mount.uuid}/${prefix}`), `${mount.uuid}/${prefix}`) } };
}

async function write(req: SecretsRequest, path: string) {
  const input = req.input ?? {};
  if (Object.keys(input).length === 0) throw new UserError('missing data fields');
  const mount = mountOf(req);
  const record = sealV1(req.services.seal, mount, path, input);
  await req.services.store.write((tx) => tx.put(KV_V1_TABLE, v1Key(mount, path), record));
}

export const kvV1Backend: Backend = {
  type: 'kv',
  description: 'The key/value secrets engine, version 1: a JSON object at any path, without versions.',
  paths: [
    definePath({
      pattern: '',
      fields: {},
      synopsis: 'List the secrets at the top of the mount.',
      description: 'A LIST answers the keys and the folders (ending in "/") at the top of the mount.',
      operations: { list: { summary: 'List the top-level keys.', handler: async (req) => list(req, '') } },
    }),
    definePath({
      pattern: '*path',
      fields: PATH_FIELD,
      takesArbitraryInput: true,
      existenceCheck: (req, data) => {
        const mount = mountOf(req);
        return req.services.store.get(KV_V1_TABLE, v1Key(mount, data.get<string>('path'))) !== undefined;
      },
      synopsis: 'Read, write, list or delete a secret.',
      description:
        'A write stores the request body (a JSON object of any keys) as the secret at the path, replacing ' +
        'what was there; a read answers it; a delete removes it; a LIST answers the keys and folders below the path.',
      operations: {
        read: {
          summary: 'Read a secret.',
          handler: async (req, data) => {
            await waitForKvChange(req, blockingParamsOf(req.input), KV_V1_TABLE);
            const mount = mountOf(req);
            const path = data.get<string>('path');
            const record = req.services.store.get<SealedRecord>(KV_V1_TABLE, v1Key(mount, path));
            if (!record) throw new NotFound();
            const secret = openV1(req.services.seal, mount, path, record);
            return { data: secret, leaseDuration: leaseOf(secret, mount), headers: kvIndexHeaders(req, KV_V1_TABLE) };
          },
        },
        create: { summary: 'Write a new secret.', handler: async (req, data) => write(req, data.get<string>('path')) },
        update: { summary: 'Replace a secret.', handler: async (req, data) => write(req, data.get<string>('path')) },
        delete: {
          summary: 'Delete a secret.',
          handler: async (req, data) => {
            const mount = mountOf(req);
            await req.services.store.write((tx) => tx.delete(KV_V1_TABLE, v1Key(mount, data.get<string>('path'))));
          },
        },
        list: { summary: 'List the keys below a path.', handler: async (req, data) => list(req, `${data.get<string>('path')}/`) },
      },
    }),
  ],
};
