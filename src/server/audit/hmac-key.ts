/**
 * The server's audit HMAC key: 32 random bytes made on the first start with an audit log, kept sealed
 * in the store like the other HMAC keys, so the same values hash alike across restarts.
 */
import crypto from 'node:crypto';
import type { Seal } from '../../storage/seal.js';
import { META_TABLE, type Store } from '../../storage/store.js';

const KEY = 'audit_hmac_key';
const SEAL_CONTEXT = 'meta/audit_hmac_key';

export async function auditHmacKey(store: Store, seal: Seal): Promise<Buffer> {
  const sealed =
    store.get<string>(META_TABLE, KEY) ??
    (
      await store.write((tx) => {
        // Another server process sharing the store may have made it since our read: keep theirs.
        const existing = tx.get<string>(META_TABLE, KEY);
        if (existing) return existing;
        const made = seal.encrypt(crypto.randomBytes(32).toString('base64'), SEAL_CONTEXT);
        tx.put(META_TABLE, KEY, made);
        return made;
      })
    ).result;
  return Buffer.from(seal.decrypt(sealed, SEAL_CONTEXT), 'base64');
}
