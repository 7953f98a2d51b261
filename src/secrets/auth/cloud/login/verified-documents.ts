/**
 * Verified identity documents, remembered. An instance sends the same signed document on every login
 * (the provider signs it once, not per request), and whether it verifies depends only on its bytes, the
 * trusted certificates and the SHA-1 setting. So the content of a document that verified is kept under
 * a hash of all of them, and the next login with the same document and the same trust skips the
 * parsing and the signature check; a changed certificate registration changes the key. A document that
 * fails is never remembered: it is checked again, in full, every time.
 */
import { createHash } from 'node:crypto';

const MAX_ENTRIES = 10_000;
const verified = new Map<string, Buffer>();

/** The document's content: from memory when this exact input verified before under the same trust, else from `verify`. */
export async function verifiedOnce(parts: readonly string[], trust: string, verify: () => Promise<Buffer>): Promise<Buffer> {
  const hash = createHash('sha256').update(trust);
  for (const part of parts) hash.update('\0').update(part);
  const key = hash.digest('base64');
  const hit = verified.get(key);
  if (hit) {
    // Most recently used last, so the oldest entry is the first one evicted.
    verified.delete(key);
    verified.set(key, hit);
    return hit;
  }
  const content = await verify();
  verified.set(key, content);
  if (verified.size > MAX_ENTRIES) verified.delete(verified.keys().next().value!);
  return content;
}
