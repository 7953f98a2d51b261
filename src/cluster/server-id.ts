import path from 'node:path';
import { uuid } from '../shared/ids.js';
import { createPrivateFile, readPrivateFile } from '../storage/private-file.js';

/**
 * The server's ID in the cluster, kept in its data dir (`server-id`) so that a restarted server is the same
 * member, not a new one beside its own failed record.
 */
export async function loadServerId(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'server-id');
  const known = (await readPrivateFile(file, 'server ID file'))?.trim();
  if (known) return known;
  const id = uuid();
  if (await createPrivateFile(file, `${id}\n`, 'server ID file')) return id;
  // Another process made it first: its ID is the one.
  return (await readPrivateFile(file, 'server ID file'))!.trim();
}
