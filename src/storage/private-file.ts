/**
 * Files only the server's user may read: the keyring and the seal key. Read with their mode checked,
 * created 0600 without ever replacing one that exists, and flushed (file and directory) before use.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The file's text, or undefined when it does not exist. `label` names the file in messages
 * (`keyring /data/keyring.json ...`); a file group or others can read or write is refused.
 */
export async function readPrivateFile(file: string, label: string): Promise<string | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw new Error(`cannot read ${label} ${file}: ${reason(err)}`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`${label} ${file} is not a regular file`);
    const mode = st.mode & 0o777;
    if (mode & 0o077) {
      const what = mode & 0o044 ? 'readable' : 'accessible';
      throw new Error(`${label} ${file} must not be ${what} by group or others (mode 0${mode.toString(8)}); run chmod 600 ${file}`);
    }
    return await handle.readFile('utf8');
  } catch (err) {
    if (err instanceof Error && err.message.startsWith(`${label} `)) throw err;
    throw new Error(`cannot read ${label} ${file}: ${reason(err)}`);
  } finally {
    await handle.close();
  }
}

/**
 * Creates `file` (0600) holding `text`, durably. Returns false, writing nothing, when the file already
 * exists: two processes starting at once must not replace a key the other has already sealed data with.
 */
export async function createPrivateFile(file: string, text: string, label: string): Promise<boolean> {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    const h = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      // The umask can only remove bits, but be explicit in case the file system ignores the create mode.
      await h.chmod(0o600);
      await h.writeFile(text);
      await h.sync();
    } finally {
      await h.close();
    }
    // link() rather than rename(): it fails if the name exists.
    try {
      await fs.promises.link(tmp, file);
    } catch (err) {
      const c = errCode(err);
      if (c === 'EEXIST') return false;
      // Some file systems have no hard links; accept the small race there.
      if (c === 'EPERM' || c === 'ENOTSUP' || c === 'EOPNOTSUPP' || c === 'ENOSYS') await fs.promises.rename(tmp, file);
      else throw err;
    }
    await fsyncDir(path.dirname(file));
    return true;
  } catch (err) {
    throw new Error(`cannot create ${label} ${file}: ${reason(err)}`);
  } finally {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
  }
}

/** Removes `file` durably; a file already gone is fine. */
export async function removeFile(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true });
  await fsyncDir(path.dirname(file));
}

async function fsyncDir(dir: string): Promise<void> {
  const h = await fs.promises.open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

export function errCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

export function reason(err: unknown): string {
  const c = errCode(err);
  if (c === 'EACCES' || c === 'EPERM') return 'permission denied';
  if (c === 'EISDIR') return 'is a directory';
  if (c === 'ENOENT') return 'no such file or directory';
  return err instanceof Error ? err.message : String(err);
}
