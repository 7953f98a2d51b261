import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest. The keyring file holds the AES-256-GCM data keys and the token-hash salt; whoever has
 * it plus the data dir has every secret, so it is created 0600 and refused when others can read it.
 *
 * Sealed values carry the key id so a later build can add keys (rotation) and still open old values.
 * The caller's `context` (e.g. `kv/<mount>/<path>#<version>`) is the GCM additional data: a ciphertext
 * copied into another record fails authentication instead of decrypting there.
 */

const FORMAT = 1;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PREFIX = 'v1';

interface KeyringFile {
  version: number;
  activeKeyId: string;
  keys: Record<string, string>;
  tokenSalt: string;
}

export class Seal {
  private constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    private readonly activeKeyId: string,
    private readonly tokenSalt: Buffer,
  ) {}

  /** Reads `<dir>/keyring.json`, creating it (and `dir`, 0700) on first start. */
  static async open(dir: string): Promise<Seal> {
    const file = path.join(path.resolve(dir), 'keyring.json');
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch (err) {
      const c = errCode(err);
      const why = c === 'EEXIST' || c === 'ENOTDIR' ? 'not a directory' : reason(err);
      throw new Error(`cannot create keyring ${file}: ${path.dirname(file)}: ${why}`);
    }
    const raw =
      (await readKeyring(file)) ??
      (await createKeyring(file)) ??
      // Another process created it between our read and our create: use theirs.
      (await readKeyring(file)) ??
      fail(`keyring ${file} disappeared while it was being created`);
    return new Seal(decodeKeys(file, raw), raw.activeKeyId, decodeB64(file, 'tokenSalt', raw.tokenSalt));
  }

  /** A throwaway keyring that lives only in memory (tests use it to check that keys do not travel). */
  static memory(): Seal {
    const id = newKeyId();
    return new Seal(new Map([[id, crypto.randomBytes(KEY_BYTES)]]), id, crypto.randomBytes(KEY_BYTES));
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.activeKeyId;
  }

  encrypt(plain: string, context: string): string {
    const key = this.keys.get(this.activeKeyId)!;
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const blob = Buffer.concat([iv, cipher.getAuthTag(), body]);
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
    if (blob.length < IV_BYTES + TAG_BYTES) throw new Error('cannot decrypt: sealed value is truncated');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, blob.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(blob.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(blob.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('cannot decrypt: sealed value failed authentication (it was altered, or belongs to another record)');
    }
  }

  /** Deterministic so the hash can be the lookup key; salted so a stolen store cannot be checked against guessed tokens without the keyring. */
  hashToken(token: string): string {
    return crypto.createHmac('sha256', this.tokenSalt).update(token, 'utf8').digest('hex');
  }
}

async function readKeyring(file: string): Promise<KeyringFile | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw new Error(`cannot read keyring ${file}: ${reason(err)}`);
  }
  let text: string;
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`keyring ${file} is not a regular file`);
    const mode = st.mode & 0o777;
    if (mode & 0o077) {
      const what = mode & 0o044 ? 'readable' : 'accessible';
      throw new Error(
        `keyring ${file} must not be ${what} by group or others (mode 0${mode.toString(8)}); run chmod 600 ${file}`,
      );
    }
    text = await handle.readFile('utf8');
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('keyring ')) throw err;
    throw new Error(`cannot read keyring ${file}: ${reason(err)}`);
  } finally {
    await handle.close();
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw corrupt(file, 'not valid JSON');
  }
  return validate(file, raw);
}

/** Returns undefined when another process created the file first. */
async function createKeyring(file: string): Promise<KeyringFile | undefined> {
  const id = newKeyId();
  const raw: KeyringFile = {
    version: FORMAT,
    activeKeyId: id,
    keys: { [id]: crypto.randomBytes(KEY_BYTES).toString('base64') },
    tokenSalt: crypto.randomBytes(KEY_BYTES).toString('base64'),
  };
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    const h = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      // The umask can only remove bits, but be explicit in case the file system ignores the create mode.
      await h.chmod(0o600);
      await h.writeFile(`${JSON.stringify(raw, null, 2)}\n`);
      await h.sync();
    } finally {
      await h.close();
    }
    // link() rather than rename(): it fails if the name exists, so two processes starting at once cannot
    // replace a keyring the other has already sealed data with.
    try {
      await fs.promises.link(tmp, file);
    } catch (err) {
      const c = errCode(err);
      if (c === 'EEXIST') return undefined;
      // Some file systems have no hard links; accept the small race there.
      if (c === 'EPERM' || c === 'ENOTSUP' || c === 'EOPNOTSUPP' || c === 'ENOSYS') await fs.promises.rename(tmp, file);
      else throw err;
    }
    await fsyncDir(path.dirname(file));
  } catch (err) {
    throw new Error(`cannot create keyring ${file}: ${reason(err)}`);
  } finally {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
  }
  return raw;
}

async function fsyncDir(dir: string): Promise<void> {
  const h = await fs.promises.open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
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

function decodeKeys(file: string, raw: KeyringFile): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const [id, b64] of Object.entries(raw.keys)) {
    if (id.includes(':')) throw corrupt(file, `key id ${id} contains ':'`);
    keys.set(id, decodeB64(file, `keys.${id}`, b64));
  }
  return keys;
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

function newKeyId(): string {
  return crypto.randomBytes(4).toString('hex');
}

function errCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function reason(err: unknown): string {
  const c = errCode(err);
  if (c === 'EACCES' || c === 'EPERM') return 'permission denied';
  if (c === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}

function fail(message: string): never {
  throw new Error(message);
}
