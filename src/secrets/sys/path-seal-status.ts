/**
 * sys/init and sys/seal-status, as Vault answers them, without a token. A running svc server is always
 * initialised and unsealed: its keyring is opened at start (by the key in the data dir, or by the
 * external seal key), and a server that cannot open it does not start. So there are no unseal keys to
 * enter, no progress and no nonce: one key opens the keyring, t = n = 1.
 */
import { definePath } from '../framework/path.js';
import type { SecretsContext } from '../context.js';
import { CLUSTER_NAME, clusterId, initialized } from './cluster-identity.js';

/**
 * Vault's seal types: an operator-supplied key that unseals at start is its `static` seal; the key kept
 * with the data, which the server also applies by itself, is closest to a one-share `shamir` seal.
 */
const sealType = (services: SecretsContext) => (services.config.externalSealKey ? 'static' : 'shamir');

export const sealStatusPaths = [
  definePath({
    pattern: 'init',
    fields: {},
    unauthenticated: true,
    synopsis: 'Whether the server is initialised.',
    description: 'Answers {"initialized": true} once the server has made its state and root token, as Vault\'s sys/init. No token is needed.',
    operations: {
      read: {
        summary: 'Returns the initialisation status.',
        handler: async (req) => ({ raw: { initialized: initialized(req.services.store) } }),
      },
    },
  }),
  definePath({
    pattern: 'seal-status',
    fields: {},
    unauthenticated: true,
    synopsis: 'The seal status of the server.',
    description:
      'Answers Vault\'s seal status: the seal type ("static" with an external seal key, else "shamir"), ' +
      'initialized, sealed (always false on a running server), t and n (1), progress, nonce, version, the ' +
      'cluster\'s name and ID, and the storage type (lmdb, postgresql or inmem). No token is needed.',
    operations: {
      read: {
        summary: 'Returns the seal status.',
        handler: async (req) => {
          const { services } = req;
          return {
            raw: {
              type: sealType(services),
              initialized: initialized(services.store),
              sealed: false,
              t: 1,
              n: 1,
              progress: 0,
              nonce: '',
              version: services.version,
              build_date: '',
              migration: false,
              cluster_name: CLUSTER_NAME,
              cluster_id: clusterId(services.store),
              recovery_seal: false,
              storage_type: services.config.storageType,
            },
          };
        },
      },
    },
  }),
];
