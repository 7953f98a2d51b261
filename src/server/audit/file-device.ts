/**
 * The audit log's file: opened once for appending (created 0600), one line per write. Lines go out one
 * at a time in the order they were asked for, each whole, and a write resolves only once the file has it.
 */
import fs from 'node:fs';
import { reason } from '../../storage/private-file.js';

export class AuditFile {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  static async open(file: string): Promise<AuditFile> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'a', 0o600);
    } catch (err) {
      throw new Error(`cannot open audit log ${file}: ${reason(err)}`);
    }
    try {
      // An existing regular file is closed to group and others, as Vault's file device sets its mode; a
      // device or a pipe (/dev/stdout) is left as it is.
      const st = await handle.stat();
      if (st.isFile() && st.mode & 0o077) await handle.chmod(0o600);
    } catch (err) {
      await handle.close();
      throw new Error(`cannot make audit log ${file} private (mode 0600): ${reason(err)}`);
    }
    return new AuditFile(file, handle);
  }

  append(line: string): Promise<void> {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    const done = this.tail.then(() => writeAll(this.handle, bytes));
    this.tail = done.catch(() => undefined);
    return done;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle.close();
  }
}

async function writeAll(handle: fs.promises.FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset);
    if (bytesWritten === 0) throw new Error('the file took no bytes');
    offset += bytesWritten;
  }
}
