import { randomBytes, randomUUID } from 'node:crypto';

export const uuid = (): string => randomUUID();

/** A full lower-case UUID, as the IDs the scheduler makes (allocations, nodes, evaluations). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** 8 lower-case hex characters, as in mount accessors (`auth_token_1a2b3c4d`). */
export const shortHex = (): string => randomBytes(4).toString('hex');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string; used for token secrets and accessors. */
export function base62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps the distribution uniform (248 = 62 * 4).
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    if (bytes[i] < 248) out += BASE62[bytes[i] % 62];
  }
  return out.length === length ? out : out + base62(length - out.length);
}
