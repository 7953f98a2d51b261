/** The engine a KV request reached, as the mount table holds it now. */
import { NotFound } from '../../shared/errors.js';
import type { SecretsRequest } from '../framework/request.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';

export function mountOf(req: SecretsRequest): SecretMountEntry {
  const mount = req.services.secretMounts.get(req.mountPath);
  // Disabled between routing and here: answered as if it had never been there.
  if (!mount) throw new NotFound();
  return mount;
}
