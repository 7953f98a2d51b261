/**
 * How long a name or ID may be where it becomes part of a storage key. LMDB limits a key to 1,978 bytes,
 * and a key joins a table name with up to a few names (a namespace and a job ID, a mount accessor and a
 * role): 512 bytes each keeps every such key within the limit, and is far beyond any real name.
 */
import { UserError } from './errors.js';

export const MAX_KEY_PART_BYTES = 512;

/** Why `value` cannot be a key part, naming it `what`; undefined when it can. */
export function keyPartProblem(what: string, value: string): string | undefined {
  // A UTF-16 unit is at most 3 bytes of UTF-8, so 170 units cannot pass the limit: count only past that.
  if (value.length <= 170) return undefined;
  const bytes = Buffer.byteLength(value, 'utf8');
  return bytes > MAX_KEY_PART_BYTES ? `${what} is too long: ${bytes} bytes (at most ${MAX_KEY_PART_BYTES})` : undefined;
}

/** A 400 naming `what` when `value` is longer than a key part may be. */
export function checkKeyPart(what: string, value: string): void {
  const problem = keyPartProblem(what, value);
  if (problem) throw new UserError(problem);
}
