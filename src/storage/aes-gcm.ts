/**
 * AES-256-GCM as the store seals with it, both for values (seal.ts) and for the keyring under an external
 * key (keyring-file.ts): a blob is `iv ‖ tag ‖ ciphertext`, authenticated together with additional data
 * that ties it to where it belongs.
 */
import crypto from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The shortest blob there can be: its IV and tag, for an empty plaintext. */
export const GCM_OVERHEAD = IV_BYTES + TAG_BYTES;

export function gcmSeal(key: Buffer, plain: string, aad: Buffer): Buffer {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of a blob at least GCM_OVERHEAD long; throws when it fails authentication. */
export function gcmOpen(key: Buffer, blob: Buffer, aad: Buffer): string {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, blob.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(blob.subarray(IV_BYTES, GCM_OVERHEAD));
  return Buffer.concat([decipher.update(blob.subarray(GCM_OVERHEAD)), decipher.final()]).toString('utf8');
}
