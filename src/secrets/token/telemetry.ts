/**
 * Tokens made and ended, as Vault counts them: vault.token.creation by mount and token type, revocations
 * (asked for, a mount disabled, the last use spent) and expirations (the sweep of expired tokens), each
 * counting the token and the children that went with it. Counted once the write's function has returned
 * (beforeCommit) or its write has resolved, so a write that fails counts nothing.
 */
import { Counter, type CounterCell } from '../../shared/metrics/registry.js';

const creation = new Counter('vault.token.creation', 'Tokens created, by the mount that made them and token type.', ['mount_point', 'token_type']);

/** mount_point → token type → cell, so a creation looks its cell up without joining strings. */
const creationCells = new Map<string, Map<string, CounterCell>>();

/** The auth mount a token was made by, from its path (`auth/cloud/login` → `auth/cloud/`): as many as the mounts. */
function mountPoint(path: string): string {
  const second = path.indexOf('/', path.indexOf('/') + 1);
  return second === -1 ? path : path.slice(0, second + 1);
}

export function tokenCreated(path: string, type: string): void {
  const mount = mountPoint(path);
  let byType = creationCells.get(mount);
  if (!byType) creationCells.set(mount, (byType = new Map()));
  let cell = byType.get(type);
  if (!cell) byType.set(type, (cell = creation.child(mount, type)));
  cell.inc();
}

/** Tokens revoked: asked for, with their mount, or with their last use. */
export const tokensRevoked = new Counter('vault.token.revoke', 'Tokens revoked (with the children that went with them): asked for, their mount disabled, or their last use spent.').child();

/** Tokens revoked by the sweep because their TTL ran out. */
export const tokensExpired = new Counter('vault.expire.revoke', 'Tokens revoked by the expiry sweep (with their children) because their TTL ran out.').child();
