/**
 * The `identity` + `signature` login material: the identity document and the provider's RSA PKCS#1 v1.5
 * signature over its SHA-256. As the established implementation does, this is a plain public-key check
 * against each trusted certificate in turn: certificate validity dates are not checked here, because the
 * provider keeps signing with certificates past their notAfter.
 */
import { verify, type X509Certificate } from 'node:crypto';
import { SignatureError } from './pkcs7.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeBase64(value: string, what: string): Buffer {
  const body = value.replace(/\s+/g, '');
  if (body === '' || !BASE64.test(body)) throw new SignatureError(`failed to base64 decode the ${what}`);
  return Buffer.from(body, 'base64');
}

/** Returns the document's bytes once one trusted RSA certificate verifies the signature. */
export function verifyIdentitySignature(identity: string, signature: string, trusted: readonly X509Certificate[]): Buffer {
  const document = decodeBase64(identity, 'instance identity document');
  const sig = decodeBase64(signature, 'SHA256 RSA signature of the instance identity document');
  for (const cert of trusted) {
    if (cert.publicKey.asymmetricKeyType !== 'rsa') continue;
    if (verify('sha256', document, cert.publicKey, sig)) return document;
  }
  throw new SignatureError('instance identity verification using SHA256 RSA signature is unsuccessful: no trusted certificate verifies it');
}
