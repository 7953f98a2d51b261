/**
 * Who signed a call, checked in the provider's order: region in scope, request structure and clock skew,
 * access key known, session token matching the key, the Signature V4 signature, then credential expiry.
 */
import { AuthError, canonicalRequest, checkStructure, expectedSignature, sigEqual, type ParsedAuth, type SigInput } from './sigv4.js';
import { now, type KeyRecord, type SimState } from './state.js';

const REGION_RE = /^(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso|-isob)?-(north|south|east|west|central|northeast|southeast|northwest|southwest)-\d$/;

export function authenticate(s: SimState, inp: SigInput, auth: ParsedAuth): KeyRecord {
  if (auth.service === 'iam' && auth.region !== 'us-east-1')
    throw new AuthError('SignatureDoesNotMatch', 'Credential should be scoped to a valid region. ');
  if (!REGION_RE.test(auth.region)) throw new AuthError('SignatureDoesNotMatch', 'Credential should be scoped to a valid region. ');
  checkStructure(inp, auth, now(s).getTime());
  const k = s.keys.get(auth.accessKeyId);
  if (!k || k.status !== 'Active') throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
  if (k.sessionToken) {
    if (!auth.securityToken || !sigEqual(auth.securityToken, k.sessionToken))
      throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
  } else if (auth.securityToken) {
    throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
  }
  // Normalised path first (the provider normalises, so `//` signed as `/` still verifies), then the raw path.
  let first: { canonical: string; stringToSign: string } | undefined;
  for (const normalize of [true, false]) {
    const canonical = canonicalRequest(inp, auth, normalize);
    const { signature, stringToSign } = expectedSignature(k.secret, auth, canonical);
    if (sigEqual(signature, auth.signature.toLowerCase())) {
      if (k.expiration && k.expiration.getTime() <= now(s).getTime())
        throw new AuthError('ExpiredToken', 'The security token included in the request is expired', 400);
      return k;
    }
    first ??= { canonical, stringToSign };
  }
  throw new AuthError(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.' +
      `\n\nThe Canonical String for this request should have been\n'${first!.canonical}'\n\nThe String-to-Sign should have been\n'${first!.stringToSign}'\n`,
  );
}
