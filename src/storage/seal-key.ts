/**
 * The external seal key: 32 random bytes kept outside the data directory, which encrypt the keyring in
 * it. Given as a file (`-seal-key-file`, `seal { key_file }`), created on first start when missing, or
 * as the environment variable SVC_SEAL_KEY. Both hold the key in base64; a message never shows it.
 */
import crypto from 'node:crypto';
import { createPrivateFile, readPrivateFile } from './private-file.js';

export const SEAL_KEY_ENV = 'SVC_SEAL_KEY';
const SEAL_KEY_BYTES = 32;

/** Where the external key comes from: a file path, or the value of SVC_SEAL_KEY. */
export type SealKeySource = { file: string } | { env: string };

export interface SealKey {
  key: Buffer;
  /** names the key in messages and the banner: `seal key file /etc/svc/seal.key` or `SVC_SEAL_KEY` */
  name: string;
}

export function sealKeyName(source: SealKeySource): string {
  return 'file' in source ? `seal key file ${source.file}` : SEAL_KEY_ENV;
}

/**
 * The key, or undefined when its file does not exist and `create` is false. With `create`, a missing
 * file is made (0600) with a fresh random key; its directory must exist.
 */
export async function loadSealKey(source: SealKeySource, create: boolean): Promise<SealKey | undefined> {
  const name = sealKeyName(source);
  if ('env' in source) return { key: decodeKey(source.env, `${SEAL_KEY_ENV} must be the base64 of ${SEAL_KEY_BYTES} bytes (e.g. the output of openssl rand -base64 32)`), name };
  const invalid = `${name} must hold the base64 of ${SEAL_KEY_BYTES} bytes, as svc writes it on first start`;
  const text = await readPrivateFile(source.file, 'seal key file');
  if (text !== undefined) return { key: decodeKey(text, invalid), name };
  if (!create) return undefined;
  const fresh = crypto.randomBytes(SEAL_KEY_BYTES);
  if (await createPrivateFile(source.file, `${fresh.toString('base64')}\n`, 'seal key file')) return { key: fresh, name };
  // Another process created it between our read and our create: use theirs.
  const theirs = await readPrivateFile(source.file, 'seal key file');
  if (theirs === undefined) throw new Error(`${name} disappeared while it was being created`);
  return { key: decodeKey(theirs, invalid), name };
}

function decodeKey(text: string, invalid: string): Buffer {
  const value = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw new Error(invalid);
  const key = Buffer.from(value, 'base64');
  if (key.length !== SEAL_KEY_BYTES) throw new Error(invalid);
  return key;
}
