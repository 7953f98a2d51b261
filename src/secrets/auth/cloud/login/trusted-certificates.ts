/**
 * The certificates an ec2 login's document is checked against: the built-in provider certificates plus
 * the mount's registered ones of the matching type (`pkcs7` for PKCS#7 documents, `identity` for the raw
 * signature).
 *
 * Two memos. Each mount's registered PEMs and their fingerprint are kept while the certificate table
 * keeps its index, so a login reads them from the store only after a registration changed (here or in
 * another server process sharing the store). And each PEM is parsed once: parsing a certificate costs
 * far more than a signature check, and the memo is keyed by the PEM text itself, so a certificate
 * replaced is simply a different key.
 */
import { createHash } from 'node:crypto';
import { LruCache } from '../../../../shared/lru-cache.js';
import type { Store } from '../../../../storage/store.js';
import { CERTIFICATE_TABLE } from '../mount-storage.js';
import { registeredCertificates } from '../path-config-certificate.js';
import { BUILTIN_CERTIFICATES } from './builtin-certificates.js';
import { indexCertificates, type TrustedCertificate } from './pkcs7.js';

/** Parsed certificates by PEM: the built-in ones and what the mounts register, with room to spare. */
const MAX_PARSED = 1024;

export type ParsedCertificates = LruCache<string, TrustedCertificate>;

export const createParsedCertificates = (): ParsedCertificates => new LruCache(MAX_PARSED);

function parsed(memo: ParsedCertificates, pem: string): TrustedCertificate {
  let entry = memo.get(pem);
  if (!entry) {
    [entry] = indexCertificates([pem]);
    memo.set(pem, entry);
  }
  return entry;
}

/**
 * The registered ones first, in name order, then the built-ins. Any trusted certificate that verifies is
 * enough, so the order only decides speed: the raw signature is tried against one key after another,
 * and a mount that registers certificates is usually verifying documents signed with them.
 */
export function trustedCertificates(registered: readonly string[], memo: ParsedCertificates): TrustedCertificate[] {
  return [...registered, ...BUILTIN_CERTIFICATES].map((pem) => parsed(memo, pem));
}

/**
 * Parses `pems` and the built-in certificates into the memo, for a mount being configured: the first
 * login then finds them parsed (the built-in ones cost some 35 ms), instead of paying for them itself.
 * A certificate that does not index is left for the login that needs it to report.
 */
export function prepareCertificates(memo: ParsedCertificates, pems: readonly string[] = []): void {
  trustedCertificates([], memo);
  for (const pem of pems) {
    try {
      parsed(memo, pem);
    } catch {
      // Only the memo is at stake here: the login that trusts this certificate parses it again and says why it fails.
    }
  }
}

export interface TrustedSet {
  /** the mount's registered PEMs of the type, in name order (the built-in ones are added where the check runs) */
  registered: string[];
  /** names the registered certificates (the built-in ones never change): equal sets, equal fingerprints */
  fingerprint: string;
}

export interface MountTrust {
  /** The mount's trust for one document type as stored now: a login sees every registration committed before it. */
  get(store: Store, accessor: string, type: 'pkcs7' | 'identity'): TrustedSet;
  /** The mount is gone: its sets go too. */
  forget(accessor: string): void;
}

export function createMountTrust(): MountTrust {
  const sets = new Map<string, { index: number; set: TrustedSet }>();
  return {
    get(store, accessor, type) {
      // Read before the certificates: a registration landing in between makes the next login read again.
      const index = store.tableIndex(CERTIFICATE_TABLE);
      const key = `${accessor}/${type}`;
      const kept = sets.get(key);
      if (kept?.index === index) return kept.set;
      const registered = registeredCertificates(store, accessor, type);
      const fingerprint = createHash('sha256');
      for (const pem of registered) fingerprint.update(pem).update('\0');
      const set = { registered, fingerprint: fingerprint.digest('base64') };
      sets.set(key, { index, set });
      return set;
    },
    forget(accessor) {
      for (const type of ['pkcs7', 'identity']) sets.delete(`${accessor}/${type}`);
    },
  };
}
