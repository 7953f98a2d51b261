/**
 * Verified identity documents, remembered. An instance sends the same signed document on every login
 * (the provider signs it once, not per request), and whether it verifies depends only on its bytes, the
 * trusted certificates and the SHA-1 setting. So the content of a document that verified is kept under
 * a hash of all of them, and the next login with the same document and the same trust skips the
 * parsing and the signature check; a changed certificate registration changes the key, whichever server
 * process made it. A document that fails is never remembered: it is checked again, in full, every time.
 */
import { createHash } from 'node:crypto';
import { LruCache } from '../../../../shared/lru-cache.js';

const MAX_ENTRIES = 10_000;

export type VerifiedDocuments = LruCache<string, Buffer>;

export const createVerifiedDocuments = (): VerifiedDocuments => new LruCache(MAX_ENTRIES);

/** The document's content: from `memory` when this exact input verified before under the same trust, else from `verify`. */
export function verifiedOnce(memory: VerifiedDocuments, parts: readonly string[], trust: string, verify: () => Buffer): Buffer {
  const hash = createHash('sha256').update(trust);
  for (const part of parts) hash.update('\0').update(part);
  const key = hash.digest('base64');
  const hit = memory.get(key);
  if (hit) return hit;
  const content = verify();
  memory.set(key, content);
  return content;
}
