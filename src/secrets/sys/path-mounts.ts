/**
 * sys/mounts, as Vault's: the secrets engines table (sys/ and identity/, the engines svc has), and one
 * engine at sys/mounts/<path>. Reading needs `read` on the path, as in Vault.
 */
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
import { mountInfo } from './mount-info.js';

function secretMountInfo(m: SecretMountEntry, version: string): Record<string, unknown> {
  return mountInfo(m, { default_lease_ttl: m.config.defaultLeaseTtl, max_lease_ttl: m.config.maxLeaseTtl, force_no_cache: m.config.forceNoCache }, version);
}

/** `kv`, `/kv/` and `kv/` all name the mount at kv/. */
const mountPathOf = (raw: string) => `${raw.replace(/^\/+|\/+$/g, '')}/`;

export const mountsPaths = [
  definePath({
    pattern: 'mounts',
    fields: {},
    synopsis: 'List the secrets engines.',
    description: 'Answers every secrets engine mount keyed by its path, e.g. "sys/", with its type, accessor, config and options.',
    operations: {
      read: {
        summary: 'List the secrets engine mounts.',
        handler: async (req) => {
          const { services } = req;
          return { data: Object.fromEntries(services.secretMounts.list().map((m) => [m.path, secretMountInfo(m, services.version)])) };
        },
      },
    },
  }),
  definePath({
    pattern: 'mounts/*path',
    fields: { path: { type: 'string', description: 'The mount path of the secrets engine, e.g. "identity".' } },
    synopsis: 'Read a secrets engine mount.',
    description: 'Answers one secrets engine mount as sys/mounts lists it.',
    operations: {
      read: {
        summary: 'Read one secrets engine mount.',
        handler: async (req, data) => {
          const path = mountPathOf(data.get<string>('path'));
          const mount = req.services.secretMounts.get(path);
          // Vault's answer for a path with no engine, kept for clients that match on it.
          if (!mount) throw new UserError(`No secret engine mount at ${path}`);
          return { data: secretMountInfo(mount, req.services.version) };
        },
      },
    },
  }),
];
