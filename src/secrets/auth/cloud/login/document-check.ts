/**
 * One ec2 login's signature check, as plain data: what the event loop hands a verification worker
 * (verify-pool.ts), and what the worker, or the calling thread without workers, runs.
 */
import { LruCache } from '../../../../shared/lru-cache.js';
import { createDecodeMemo, SignatureError, verifyPkcs7, type DecodeMemo, type TrustedCertificate } from './pkcs7.js';
import { verifyIdentitySignature } from './identity-signature.js';
import { createParsedCertificates, trustedCertificates, type ParsedCertificates } from './trusted-certificates.js';

export type DocumentCheck =
  | { kind: 'pkcs7'; pkcs7: string; allowSha1: boolean; trust: CheckTrust }
  | { kind: 'identity'; identity: string; signature: string; trust: CheckTrust };

/** The trust to check against; `registered` may be left out when the thread running the check was told it before. */
export interface CheckTrust {
  fingerprint: string;
  registered?: string[];
}

/** The running thread does not know the check's trust fingerprint: send the check again with `registered`. */
export class UnknownTrust extends Error {}

/**
 * A handful of trust sets at most are live at once (one per mount and type), so the least recently
 * used goes past this.
 */
const MAX_TRUST_SETS = 32;

/**
 * What a thread that runs checks keeps between them, all of it a function of its keys (fingerprints,
 * PEMs, encodings) and so never stale: the parsed trusted certificates by trust fingerprint (a check
 * does not look up the 40-odd PEMs one by one), each parsed certificate by its PEM, and the decoded
 * forms of the elements every document of a signer repeats.
 */
export interface CheckMemos {
  trustSets: LruCache<string, TrustedCertificate[]>;
  certificates: ParsedCertificates;
  decoded: DecodeMemo;
}

export function createCheckMemos(): CheckMemos {
  return { trustSets: new LruCache(MAX_TRUST_SETS), certificates: createParsedCertificates(), decoded: createDecodeMemo() };
}

function trustedOf(trust: CheckTrust, memos: CheckMemos): TrustedCertificate[] {
  let certs = memos.trustSets.get(trust.fingerprint);
  if (!certs) {
    if (!trust.registered) throw new UnknownTrust(trust.fingerprint);
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

/** One check as sent to a worker, with the id its answer carries back. */
export interface CheckRequest {
  id: number;
  check: DocumentCheck;
}

/** A worker's answer to one check. */
export type CheckAnswer = { id: number; content: Uint8Array } | { id: number; error: string; signature: boolean } | { id: number; unknownTrust: true };

/** Runs a check for a worker: the answer carries the refusal's message, to be thrown again on the other side. */
export function answerCheck(id: number, check: DocumentCheck, memos: CheckMemos): CheckAnswer {
  try {
    // A copy that owns its memory: the document may sit in Node's shared Buffer pool, which a transfer
    // to the event loop's thread would take away from this one.
    return { id, content: new Uint8Array(checkDocument(check, memos)) };
  } catch (err) {
    if (err instanceof UnknownTrust) return { id, unknownTrust: true };
    return { id, error: (err as Error).message, signature: err instanceof SignatureError };
  }
}
