/**
 * The nonces the server hands out at an instance's first ec2 login, kept for its later logins
 * (~/.svc-cloud-nonce, or SVC_CLOUD_NONCE_FILE), mode 0600. One JSON object, keyed by server address,
 * mount and instance ID: a machine may log in to several servers or mounts, and each keeps its own nonce.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** The file cannot be read, written or understood. A local failure, not a usage error. */
export class NonceFileError extends Error {}

export function nonceFilePath(env: NodeJS.ProcessEnv): string {
  return env.SVC_CLOUD_NONCE_FILE || path.join(env.HOME || homedir(), '.svc-cloud-nonce');
}

export function nonceKey(address: string, mount: string, instanceId: string): string {
  return `${address.replace(/\/+$/, '')}|${mount}|${instanceId}`;
}

export async function readNonces(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new NonceFileError(`Error reading the nonce file ${file}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw corrupted(file, (err as Error).message);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw corrupted(file, 'it does not hold a JSON object');
  const bad = Object.entries(parsed).find(([, v]) => typeof v !== 'string');
  if (bad) throw corrupted(file, `the value of "${bad[0]}" is not a string`);
  return parsed as Record<string, string>;
}

// Deleting the file would lose every nonce in it, after which the server refuses those instances'
// logins until their access-list entries are removed: say so instead of starting afresh silently.
function corrupted(file: string, detail: string): NonceFileError {
  return new NonceFileError(
    `The nonce file ${file} is corrupted (${detail}). Repair it, or move it away and pass each instance's ` +
      'nonce with nonce=...; logins of instances the server has seen fail without their nonce.',
  );
}

export async function readNonce(file: string, key: string): Promise<string | undefined> {
  const nonces = await readNonces(file);
  return Object.hasOwn(nonces, key) ? nonces[key] : undefined;
}

/** Read, change, write to a temporary file and rename: a reader never sees half a file. */
export async function storeNonce(file: string, key: string, nonce: string): Promise<void> {
  const nonces = await readNonces(file);
  nonces[key] = nonce;
  // Unguessable and created exclusively, so nobody can plant the temporary file (or a link) first.
  const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(nonces, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    // writeFile's mode passes through the umask, which may take away even the owner's bits.
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new NonceFileError(`Error writing the nonce file ${file}: ${(err as Error).message}`);
  }
}
