/**
 * One ec2 login's signature check, as plain data: what the event loop hands a verification worker
 * (verify-pool.ts), and what the worker, or the calling thread without workers, runs.
 */
import { SignatureError, verifyPkcs7 } from './pkcs7.js';
import { verifyIdentitySignature } from './identity-signature.js';
import { trustedCertificates } from './trusted-certificates.js';

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
 * The parsed trusted certificates by trust fingerprint, so that a check does not look up the 40-odd
 * PEMs one by one; a changed registration has another fingerprint. A handful of sets at most are live
 * at once (one per mount and type), so the oldest goes past that.
 */
const MAX_TRUST_SETS = 32;
const trustSets = new Map<string, ReturnType<typeof trustedCertificates>>();

function trustedOf(trust: CheckTrust) {
  let certs = trustSets.get(trust.fingerprint);
  if (!certs) {
    if (!trust.registered) throw new UnknownTrust(trust.fingerprint);
    certs = trustedCertificates(trust.registered);
    trustSets.set(trust.fingerprint, certs);
    if (trustSets.size > MAX_TRUST_SETS) trustSets.delete(trustSets.keys().next().value!);
  }
  return certs;
}

/** The signed document's bytes, once its signature verifies; a SignatureError naming the failed check otherwise. */
export function checkDocument(check: DocumentCheck): Buffer {
  const trusted = trustedOf(check.trust);
  if (check.kind === 'pkcs7') return verifyPkcs7(check.pkcs7, trusted, { allowSha1: check.allowSha1 }).content;
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
export function answerCheck(id: number, check: DocumentCheck): CheckAnswer {
  try {
    // A copy that owns its memory: the document may sit in Node's shared Buffer pool, which a transfer
    // to the event loop's thread would take away from this one.
    return { id, content: new Uint8Array(checkDocument(check)) };
  } catch (err) {
    if (err instanceof UnknownTrust) return { id, unknownTrust: true };
    return { id, error: (err as Error).message, signature: err instanceof SignatureError };
  }
}
