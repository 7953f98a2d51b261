/**
 * One ec2 login's signature check, run in the thread that serves the login. It costs little more than
 * the RSA (or DSA) verify in it, some 80 µs: handing it to a worker thread cost the event loop more than
 * that in messages alone (the round trip was some 10% of a login), and the worker's own time on top.
 */
import { LruCache } from '../../../../shared/lru-cache.js';
import { createDecodeMemo, verifyPkcs7, type DecodeMemo, type TrustedCertificate } from './pkcs7.js';
import { verifyIdentitySignature } from './identity-signature.js';
import { createParsedCertificates, trustedCertificates, type ParsedCertificates, type TrustedSet } from './trusted-certificates.js';

export type DocumentCheck =
  | { kind: 'pkcs7'; pkcs7: string; allowSha1: boolean; trust: TrustedSet }
  | { kind: 'identity'; identity: string; signature: string; trust: TrustedSet };

/**
 * A handful of trust sets at most are live at once (one per mount and type), so the least recently
 * used goes past this.
 */
const MAX_TRUST_SETS = 32;

/**
 * What a server keeps between checks, all of it a function of its keys (fingerprints, PEMs, encodings)
 * and so never stale: the parsed trusted certificates by trust fingerprint (a check does not look up
 * the 40-odd PEMs one by one), each parsed certificate by its PEM, and the decoded forms of the elements
 * every document of a signer repeats.
 */
export interface CheckMemos {
  trustSets: LruCache<string, TrustedCertificate[]>;
  certificates: ParsedCertificates;
  decoded: DecodeMemo;
}

export function createCheckMemos(): CheckMemos {
  return { trustSets: new LruCache(MAX_TRUST_SETS), certificates: createParsedCertificates(), decoded: createDecodeMemo() };
}

/** The parsed certificates of `trust`, parsing those of a set not seen before. */
export function trustedOf(trust: TrustedSet, memos: CheckMemos): TrustedCertificate[] {
  let certs = memos.trustSets.get(trust.fingerprint);
  if (!certs) {
    certs = trustedCertificates(trust.registered, memos.certificates);
    memos.trustSets.set(trust.fingerprint, certs);
  }
  return certs;
}

/** The signed document's bytes, once its signature verifies; a SignatureError naming the failed check otherwise. */
export function checkDocument(check: DocumentCheck, memos: CheckMemos): Buffer {
  const trusted = trustedOf(check.trust, memos);
  if (check.kind === 'pkcs7') return verifyPkcs7(check.pkcs7, trusted, { allowSha1: check.allowSha1, decoded: memos.decoded }).content;
  return verifyIdentitySignature(
    check.identity,
    check.signature,
    trusted.map((t) => t.cert),
  );
}
