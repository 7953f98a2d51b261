/**
 * The token file that `svc login` and `svc server -dev` write and every command reads (~/.svc-token).
 * Synchronous node:fs only: it is already loaded at start-up, where node:fs/promises would cost a module.
 * For the same reason node:os is loaded only when HOME is unset.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return env.SVC_TOKEN_FILE || path.join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.svc-token');
}

export function readTokenFile(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const text = readFileSync(tokenFilePath(env), 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Written to a temporary file first and renamed, so a reader never sees half a token; mode 0600. */
export async function writeTokenFile(env: NodeJS.ProcessEnv, token: string): Promise<string> {
  const file = tokenFilePath(env);
  await writePrivateFile(file, token);
  return file;
}

/** `text` in `file`, written whole or not at all (a temporary file renamed), mode 0600. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  // A name nobody can guess, created exclusively ('wx'): in a shared directory another user cannot
  // plant the file (or a link) first and receive the token.
  const { randomBytes } = await import('node:crypto');
  const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
