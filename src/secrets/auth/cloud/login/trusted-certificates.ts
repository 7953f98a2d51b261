/**
 * The certificates an ec2 login's document is checked against: the built-in provider certificates plus
 * the mount's registered ones of the matching type (`pkcs7` for PKCS#7 documents, `identity` for the raw
 * signature). Parsing a certificate costs far more than a signature check, so each PEM is parsed once
 * per thread and the parsed form reused for every login; the cache is keyed by the PEM text itself, so
 * a certificate registered, replaced or removed (here or by another server process sharing the store)
 * is simply a different key.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../../../../storage/store.js';
import { registeredCertificates } from '../path-config-certificate.js';
import { BUILTIN_CERTIFICATES } from './builtin-certificates.js';
import { indexCertificates, type TrustedCertificate } from './pkcs7.js';

const indexed = new Map<string, TrustedCertificate>();

function parsed(pem: string): TrustedCertificate {
  let entry = indexed.get(pem);
  if (!entry) {
    [entry] = indexCertificates([pem]);
    indexed.set(pem, entry);
  }
  return entry;
}

/**
 * The registered ones first, in name order, then the built-ins. Any trusted certificate that verifies is
 * enough, so the order only decides speed: the raw signature is tried against one key after another,
 * and a mount that registers certificates is usually verifying documents signed with them.
 */
export function trustedCertificates(registered: readonly string[]): TrustedCertificate[] {
  return [...registered, ...BUILTIN_CERTIFICATES].map(parsed);
}

/** The mount's trust for one document type, read from the store now: a login sees every registration committed before it. */
export function trustedFor(store: Store, accessor: string, type: 'pkcs7' | 'identity'): TrustedSet {
  const registered = registeredCertificates(store, accessor, type);
  const fingerprint = createHash('sha256');
  for (const pem of registered) fingerprint.update(pem).update('\0');
  return { registered, fingerprint: fingerprint.digest('base64') };
}

export interface TrustedSet {
  /** the mount's registered PEMs of the type, in name order (the built-in ones are added where the check runs) */
  registered: string[];
  /** names the registered certificates (the built-in ones never change): equal sets, equal fingerprints */
  fingerprint: string;
}
