/**
 * auth/cloud/login: exchanges proof of identity for a token. Which proof was sent decides the login type
 * (the established dispatch: a field's presence counts, even empty), whatever the role's auth_type says;
 * the role then has to be of that type. A refused login answers with what failed and logs it with the
 * facts an operator needs (never the document, the signature or the nonce).
 */
import { SvcError, UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import type { FieldData } from '../../../framework/schema/field-data.js';
import type { SecretsRequest } from '../../framework/request.js';
import { LOGIN_FIELDS } from './fields.js';
import { ec2Login } from './login-ec2.js';
import { iamLogin } from './login-iam.js';
import { issueLoginToken } from './login/issue-token.js';
import type { CloudState } from './cloud-state.js';
import { loginDone } from '../telemetry.js';

const EC2_FIELDS = ['pkcs7', 'identity', 'signature'];
const IAM_FIELDS = ['iam_http_request_method', 'iam_request_url', 'iam_request_body', 'iam_request_headers'];

export function loginType(data: FieldData): 'ec2' | 'iam' {
  const ec2 = EC2_FIELDS.some((f) => data.has(f));
  const iam = IAM_FIELDS.some((f) => data.has(f));
  if (ec2 && iam) throw new UserError('supplied auth values for both ec2 and iam auth types');
  if (ec2) {
    if (!data.has('pkcs7') && !(data.has('identity') && data.has('signature'))) {
      throw new UserError('supplied some of the auth values for the ec2 auth type but not all: send pkcs7, or identity and signature');
    }
    return 'ec2';
  }
  if (iam) {
    const needed = ['iam_http_request_method', 'iam_request_url', 'iam_request_headers'];
    if (data.get<string>('iam_http_request_method') !== 'GET') needed.push('iam_request_body');
    const missing = needed.filter((f) => !data.has(f));
    if (missing.length > 0) throw new UserError(`supplied some of the auth values for the iam auth type but not all: missing ${missing.join(', ')}`);
    return 'iam';
  }
  throw new UserError("didn't supply required authentication values: send pkcs7 (or identity and signature) for ec2, or the iam_* fields for iam");
}

async function login(state: CloudState, req: SecretsRequest, data: FieldData) {
  const started = performance.now();
  let type: 'ec2' | 'iam' | undefined;
  try {
    type = loginType(data);
    const outcome = type === 'ec2' ? await ec2Login(state, req, data) : await iamLogin(state, req, data);
    const issued = await issueLoginToken(req, outcome);
    loginDone('cloud', type, 'success', started);
    return issued;
  } catch (err) {
    const role = data.get<string>('role');
    const what = `cloud login refused: mount=${req.mountPath} type=${type ?? 'unknown'} role=${role === '' ? '(implied)' : JSON.stringify(role)} from=${req.remoteAddress}`;
    const log = req.services.log;
    const denied = err instanceof SvcError && err.statusCode < 500;
    loginDone('cloud', type ?? 'unknown', denied ? 'denied' : 'error', started);
    if (denied) log.info(`${what}: ${err.message}`);
    else log.error(`${what}: ${(err as Error).message}`);
    throw err;
  }
}

/** The login path; `state` is the server's cloud auth method state. */
export const loginPaths = (state: CloudState) => [
  definePath({
    pattern: 'login',
    fields: LOGIN_FIELDS,
    unauthenticated: true,
    synopsis: 'Log in with a signed instance identity document (ec2) or a signed caller-identity request (iam).',
    description:
      'ec2: send pkcs7 (the rsa2048 document of the metadata service), or identity and signature, and the nonce of earlier logins. ' +
      'iam: send the four iam_* fields of a signed GetCallerIdentity request; the server sends it to the token service to learn who signed it. ' +
      'Either way the role (given, or named like the image ID or the principal) must admit the instance or principal.',
    operations: {
      update: { summary: 'Log in.', handler: (req, data) => login(state, req, data) },
    },
  }),
];
