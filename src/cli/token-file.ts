/** The token file that `svc login` and `svc server -dev` write and every command reads (~/.svc-token). */
import { readFileSync } from 'node:fs';
import { writeFile, rename, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return env.SVC_TOKEN_FILE || path.join(env.HOME || homedir(), '.svc-token');
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
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, token, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return file;
}
