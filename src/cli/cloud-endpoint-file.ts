/**
 * Where `svc server -dev -dev-cloud` leaves its cloud simulator's metadata endpoint for scripts: a file
 * beside the token file (~/.svc-cloud-endpoint), written once the simulator listens and removed when the
 * server stops, and read by `svc print cloud-endpoint`, so a CI job needs no banner scraping.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tokenFilePath, writePrivateFile } from './token-file.js';

export function cloudEndpointFilePath(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(tokenFilePath(env)), '.svc-cloud-endpoint');
}

export async function writeCloudEndpointFile(env: NodeJS.ProcessEnv, endpoint: string): Promise<string> {
  const file = cloudEndpointFilePath(env);
  await writePrivateFile(file, `${endpoint}\n`);
  return file;
}

/** The endpoint in the file; undefined when there is none. */
export function readCloudEndpointFile(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return readFileSync(cloudEndpointFilePath(env), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Removes the file if it still names `endpoint`: another dev server may have written its own since. */
export function removeCloudEndpointFile(env: NodeJS.ProcessEnv, endpoint: string): void {
  if (readCloudEndpointFile(env) === endpoint) rmSync(cloudEndpointFilePath(env), { force: true });
}
