/**
 * The key workload identities are signed with, as Nomad's keyring keeps one: an RSA key pair made by the
 * first server that needs it, its private half sealed with the keyring (so the state store holds no
 * usable key), its public half served as a JWK at /.well-known/jwks.json under the same key ID that
 * every JWT's `kid` header names. Every server of a cluster signs with the same stored key.
 */
import { createPrivateKey, generateKeyPair, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Seal } from '../../storage/seal.js';
import type { Store } from '../../storage/store.js';

const SIGNING_KEYS_TABLE = 'workload-identity-keys';
/** The one key in use; a rotation would add others under their own IDs. */
const ACTIVE = 'active';

interface StoredSigningKey {
  keyId: string;
  algorithm: 'RS256';
  createTime: string;
  /** the private key as PKCS#8 PEM, sealed with the keyring under `sealContext(keyId)` */
  sealedPrivateKey: string;
  /** the public key as a JWK (no secret in it) */
  publicJwk: JsonWebKey;
}

export interface SigningKey {
  keyId: string;
  algorithm: 'RS256';
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

const sealContext = (keyId: string) => `workload-identity-key/${keyId}`;

const generateRsa = promisify(generateKeyPair);

async function newStoredKey(seal: Seal): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateRsa('rsa', { modulusLength: 2048 });
  const keyId = randomUUID();
  return {
    keyId,
    algorithm: 'RS256',
    createTime: new Date().toISOString(),
    sealedPrivateKey: seal.encrypt(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), sealContext(keyId)),
    publicJwk: publicKey.export({ format: 'jwk' }),
  };
}

function opened(stored: StoredSigningKey, seal: Seal): SigningKey {
  const privateKey = createPrivateKey(seal.decrypt(stored.sealedPrivateKey, sealContext(stored.keyId)));
  return { keyId: stored.keyId, algorithm: stored.algorithm, privateKey, publicJwk: stored.publicJwk };
}

/** Opened keys by store, so a key is unsealed once per server rather than once per signature. */
const cache = new WeakMap<Store, SigningKey>();

/** The signing key, made and stored on first use; two servers racing to make it agree on the first stored. */
export async function signingKey(store: Store, seal: Seal): Promise<SigningKey> {
  const cached = cache.get(store);
  if (cached) return cached;
  let stored = store.get<StoredSigningKey>(SIGNING_KEYS_TABLE, ACTIVE);
  if (!stored) {
    const candidate = await newStoredKey(seal);
    const { result } = await store.write((tx) => {
      const first = tx.get<StoredSigningKey>(SIGNING_KEYS_TABLE, ACTIVE);
      if (first) return first;
      tx.put(SIGNING_KEYS_TABLE, ACTIVE, candidate);
      return candidate;
    });
    stored = result;
  }
  const key = opened(stored, seal);
  cache.set(store, key);
  return key;
}

/** The public keys as a JSON Web Key Set: what a verifier of the identities needs. */
export async function publicKeySet(store: Store, seal: Seal): Promise<{ keys: JsonWebKey[] }> {
  const key = await signingKey(store, seal);
  return { keys: [{ ...key.publicJwk, kid: key.keyId, alg: key.algorithm, use: 'sig' }] };
}

