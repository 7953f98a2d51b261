/**
 * Where the keyring (the data keys and the token-hash salt) is kept in the data directory.
 *
 * Without an external seal key it is `keyring.json`, in the clear: whoever has the directory has every
 * secret in it. With one it is `keyring.sealed`, the same document encrypted (AES-256-GCM) with the
 * seal key, so the directory alone reveals nothing. A directory with `keyring.json` started with an
 * external key is moved to it: `keyring.sealed` is written and read back, then `keyring.json` removed.
 * The sealed values in the store are not touched, since their keys do not change.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GCM_OVERHEAD, gcmOpen, gcmSeal } from './aes-gcm.js';
import { createPrivateFile, errCode, readPrivateFile, reason, removeFile } from './private-file.js';
import { SEAL_KEY_ENV, loadSealKey, sealKeyName, type SealKey, type SealKeySource } from './seal-key.js';
import { PLAIN_KEYRING, SEALED_KEYRING } from './keyring-names.js';


const FORMAT = 1;
export const KEY_BYTES = 32;
/** The GCM additional data of the sealed keyring: its ciphertext opens as nothing else. */
const KEYRING_AAD = Buffer.from('svc keyring', 'utf8');

export interface Keyring {
  keys: Map<string, Buffer>;
  activeKeyId: string;
  tokenSalt: Buffer;
  /** where the key that opens the keyring is: `in the data directory`, `seal key file …` or `SVC_SEAL_KEY` */
  location: string;
  /** true when this open moved an in-directory keyring to the external key */
  moved: boolean;
}

interface KeyringFile {
  version: number;
  activeKeyId: string;
  keys: Record<string, string>;
  tokenSalt: string;
}

/** Opens the keyring of data directory `dir` (created, 0700, on first start), with the external key if given. */
export async function openKeyring(dir: string, external?: SealKeySource): Promise<Keyring> {
  const root = path.resolve(dir);
  try {
    await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
  } catch (err) {
    const c = errCode(err);
    const why = c === 'EEXIST' || c === 'ENOTDIR' ? 'not a directory' : reason(err);
    throw new Error(`cannot create keyring ${path.join(root, external ? SEALED_KEYRING : PLAIN_KEYRING)}: ${root}: ${why}`);
  }
  return external ? openSealed(root, external) : openPlain(root);
}

async function openPlain(root: string): Promise<Keyring> {
  const file = path.join(root, PLAIN_KEYRING);
  if (await exists(path.join(root, SEALED_KEYRING))) {
    throw new Error(
      `data directory ${root} is sealed with an external key (it holds ${SEALED_KEYRING}), and no seal key was given: ` +
        `pass -seal-key-file, set seal { key_file } in the config file, or set ${SEAL_KEY_ENV}`,
    );
  }
  let raw = await readKeyring(file);
  if (!raw) {
    await createPrivateFile(file, `${JSON.stringify(newKeyring(), null, 2)}\n`, 'keyring');
    // Ours, or another process's that created it between our read and our create: the one on disk counts.
    raw = (await readKeyring(file)) ?? fail(`keyring ${file} disappeared while it was being created`);
  }
  return decode(file, raw, 'in the data directory', false);
}

async function openSealed(root: string, source: SealKeySource): Promise<Keyring> {
  if ('file' in source) checkOutside(root, source.file);
  const sealedFile = path.join(root, SEALED_KEYRING);
  const plainFile = path.join(root, PLAIN_KEYRING);
  let sealedText = await readPrivateFile(sealedFile, 'keyring');
  // A missing key file is made only when nothing is sealed yet: a new key cannot open an existing keyring.
  const key =
    (await loadSealKey(source, sealedText === undefined)) ??
    fail(`${sealKeyName(source)} does not exist, and data directory ${root} is sealed with an external key: restore that file (a new key cannot open the directory)`);
  if (sealedText === undefined) {
    const raw = (await readKeyring(plainFile)) ?? newKeyring();
    // When another process got there first, what it wrote is read below like any existing keyring.
    await createPrivateFile(sealedFile, wrap(raw, key), 'keyring');
    sealedText = (await readPrivateFile(sealedFile, 'keyring')) ?? fail(`keyring ${sealedFile} disappeared while it was being created`);
  }
  const raw = unwrap(root, sealedFile, sealedText, key);
  // The in-directory keyring goes only once the sealed one is on disk and opens with the key; a start
  // interrupted before this finds both, the same keys in each, and finishes here.
  const plain = await readKeyring(plainFile);
  if (plain && !sameKeyring(plain, raw)) {
    throw new Error(
      `data directory ${root} holds both ${PLAIN_KEYRING} and ${SEALED_KEYRING}, with different keys: ` +
        `${SEALED_KEYRING} is the one in use; remove ${plainFile} once you are sure nothing needs it`,
    );
  }
  if (plain) await removeFile(plainFile);
  return decode(sealedFile, raw, key.name, plain !== undefined);
}

function checkOutside(root: string, keyFile: string): void {
  const rel = path.relative(root, path.resolve(keyFile));
  if (rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel))) {
    throw new Error(`the seal key file ${keyFile} is inside the data directory ${root}: keep it elsewhere, so that a copy of the directory does not carry its key`);
  }
}

function wrap(raw: KeyringFile, key: SealKey): string {
  const sealed = gcmSeal(key.key, JSON.stringify(raw), KEYRING_AAD).toString('base64');
  return `${JSON.stringify({ version: FORMAT, sealed }, null, 2)}\n`;
}

function unwrap(root: string, file: string, text: string, key: SealKey): KeyringFile {
  let doc: { version?: unknown; sealed?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    throw corrupt(file, 'not valid JSON');
  }
  if (!doc || typeof doc !== 'object' || doc.version !== FORMAT) throw corrupt(file, `unsupported format version ${JSON.stringify(doc?.version)}`);
  if (typeof doc.sealed !== 'string') throw corrupt(file, 'missing sealed');
  const blob = Buffer.from(doc.sealed, 'base64');
  if (blob.length < GCM_OVERHEAD) throw corrupt(file, 'sealed is truncated');
  let plain: string;
  try {
    plain = gcmOpen(key.key, blob, KEYRING_AAD);
  } catch {
    throw new Error(`the seal key does not open this data directory (${root}): its keyring was sealed with another key than the one in ${key.name}`);
  }
  try {
    return validate(file, JSON.parse(plain));
  } catch (err) {
    if (err instanceof SyntaxError) throw corrupt(file, 'the sealed document is not valid JSON');
    throw err;
  }
}

async function readKeyring(file: string): Promise<KeyringFile | undefined> {
  const text = await readPrivateFile(file, 'keyring');
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw corrupt(file, 'not valid JSON');
  }
  return validate(file, raw);
}

function newKeyring(): KeyringFile {
  const id = newKeyId();
  return {
    version: FORMAT,
    activeKeyId: id,
    keys: { [id]: crypto.randomBytes(KEY_BYTES).toString('base64') },
    tokenSalt: crypto.randomBytes(KEY_BYTES).toString('base64'),
  };
}

export function newKeyId(): string {
  return crypto.randomBytes(4).toString('hex');
}

function sameKeyring(a: KeyringFile, b: KeyringFile): boolean {
  const keys = (k: KeyringFile) => JSON.stringify(Object.entries(k.keys).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return a.activeKeyId === b.activeKeyId && a.tokenSalt === b.tokenSalt && keys(a) === keys(b);
}

function validate(file: string, raw: unknown): KeyringFile {
  if (!raw || typeof raw !== 'object') throw corrupt(file, 'not a JSON object');
  const r = raw as Partial<KeyringFile>;
  if (r.version !== FORMAT) throw corrupt(file, `unsupported format version ${JSON.stringify(r.version)}`);
  if (typeof r.activeKeyId !== 'string' || !r.activeKeyId) throw corrupt(file, 'missing activeKeyId');
  if (!r.keys || typeof r.keys !== 'object') throw corrupt(file, 'missing keys');
  if (typeof r.keys[r.activeKeyId] !== 'string') throw corrupt(file, `active key ${r.activeKeyId} is not in keys`);
  if (typeof r.tokenSalt !== 'string') throw corrupt(file, 'missing tokenSalt');
  return r as KeyringFile;
}

function decode(file: string, raw: KeyringFile, location: string, moved: boolean): Keyring {
  const keys = new Map<string, Buffer>();
  for (const [id, b64] of Object.entries(raw.keys)) {
    if (id.includes(':')) throw corrupt(file, `key id ${id} contains ':'`);
    keys.set(id, decodeB64(file, `keys.${id}`, b64));
  }
  return { keys, activeKeyId: raw.activeKeyId, tokenSalt: decodeB64(file, 'tokenSalt', raw.tokenSalt), location, moved };
}

function decodeB64(file: string, field: string, value: unknown): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw corrupt(file, `${field} is not base64`);
  const b = Buffer.from(value, 'base64');
  if (b.length !== KEY_BYTES) throw corrupt(file, `${field} must be ${KEY_BYTES} bytes, got ${b.length}`);
  return b;
}

function corrupt(file: string, why: string): Error {
  return new Error(`keyring ${file} is corrupt (${why}); restore it from a backup: data sealed with it cannot be read without it`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return false;
    throw new Error(`cannot read ${file}: ${reason(err)}`);
  }
}

function fail(message: string): never {
  throw new Error(message);
}
