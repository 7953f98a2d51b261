import crypto from 'node:crypto';
import { GCM_OVERHEAD, gcmOpen, gcmSeal } from './aes-gcm.js';
import { KEY_BYTES, newKeyId, openKeyring } from './keyring-file.js';
import type { SealKeySource } from './seal-key.js';

/**
 * Secrets at rest. The keyring holds the AES-256-GCM data keys and the token-hash salt; whoever has it
 * plus the data dir has every secret. It lives in the data dir, in the clear or encrypted with an
 * external seal key (keyring-file.ts).
 *
 * Sealed values carry the key id so a later build can add keys (rotation) and still open old values.
 * The caller's `context` (e.g. `kv/<mount>/<path>#<version>`) is the GCM additional data: a ciphertext
 * copied into another record fails authentication instead of decrypting there.
 */

const SEALED_PREFIX = 'v1';

export class Seal {
  private constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    private readonly activeKeyId: string,
    private readonly tokenSalt: Buffer,
    /** where the key that opens the keyring is, for the banner: `in the data directory`, `seal key file …`, `SVC_SEAL_KEY` */
    readonly keyLocation: string,
    /** true when this start moved an in-directory keyring to the external seal key */
    readonly movedToExternalKey: boolean,
  ) {}

  /**
   * Opens the keyring of data dir `dir` (creating both, 0700 and 0600, on first start); with `external`,
   * the keyring is sealed with that key, and an in-directory keyring is moved to it.
   */
  static async open(dir: string, external?: SealKeySource): Promise<Seal> {
    const k = await openKeyring(dir, external);
    return new Seal(k.keys, k.activeKeyId, k.tokenSalt, k.location, k.moved);
  }

  /** A throwaway keyring that lives only in memory (tests use it to check that keys do not travel). */
  static memory(): Seal {
    const id = newKeyId();
    return new Seal(new Map([[id, crypto.randomBytes(KEY_BYTES)]]), id, crypto.randomBytes(KEY_BYTES), 'in memory', false);
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.activeKeyId;
  }

  /** Whether this keyring holds the key with that id. */
  holds(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  encrypt(plain: string, context: string): string {
    const blob = gcmSeal(this.keys.get(this.activeKeyId)!, plain, Buffer.from(context, 'utf8'));
    return `${SEALED_PREFIX}:${this.activeKeyId}:${blob.toString('base64')}`;
  }

  decrypt(sealed: string, context: string): string {
    // Messages never include the sealed value or the context: either may be sensitive.
    const first = sealed.indexOf(':');
    const second = first < 0 ? -1 : sealed.indexOf(':', first + 1);
    if (second < 0) throw new Error('cannot decrypt: value is not a sealed value');
    const version = sealed.slice(0, first);
    const keyId = sealed.slice(first + 1, second);
    if (version !== SEALED_PREFIX) throw new Error(`cannot decrypt: unknown sealed format "${version.slice(0, 8)}"`);
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`cannot decrypt: value was sealed with key ${keyId.slice(0, 32)}, which is not in this server's keyring`);
    const blob = Buffer.from(sealed.slice(second + 1), 'base64');
    if (blob.length < GCM_OVERHEAD) throw new Error('cannot decrypt: sealed value is truncated');
    try {
      return gcmOpen(key, blob, Buffer.from(context, 'utf8'));
    } catch {
      throw new Error('cannot decrypt: sealed value failed authentication (it was altered, or belongs to another record)');
    }
  }

  /** Deterministic so the hash can be the lookup key; salted so a stolen store cannot be checked against guessed tokens without the keyring. */
  hashToken(token: string): string {
    return crypto.createHmac('sha256', this.tokenSalt).update(token, 'utf8').digest('hex');
  }
}
