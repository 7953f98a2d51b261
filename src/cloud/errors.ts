/**
 * Typed failures of the provider layer. Messages name the action and the provider's own code and text,
 * never a request body, a signature or a secret key: the server shows them to callers and writes them to logs.
 */
import { SvcError } from '../shared/errors.js';

/**
 * The provider answered with an error document (or could not be reached: status 0). `status` is the
 * provider's HTTP status. Our callers get 502 Bad Gateway with the provider's code and message: the
 * request was fine, the service behind us refused or failed it (a refusal that is the caller's doing,
 * such as a login's rejected signature, is turned into a 400 where it is caught).
 */
export class CloudApiError extends SvcError {
  override readonly statusCode = 502;
  override readonly code: string;
  override readonly name = 'CloudApiError';
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly requestId?: string,
    /** The action that failed, e.g. `ec2:DescribeInstances`. */
    readonly action?: string,
  ) {
    super(message);
    this.code = code;
  }
}

/** No link of the credential chain produced credentials. */
export class CloudCredentialsError extends SvcError {
  override readonly code = 'cloud_credentials';
  override readonly name = 'CloudCredentialsError';
}

/** A per-account client was asked for an account the configured credentials cannot reach. */
export class CloudAccountError extends SvcError {
  override readonly code = 'cloud_account';
  override readonly name = 'CloudAccountError';
}

/** Errors worth another attempt: the provider is throttling us or had a server-side failure. */
const THROTTLING_CODES = new Set(['Throttling', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException']);

export function isRetryable(err: CloudApiError): boolean {
  if (THROTTLING_CODES.has(err.code)) return true;
  // status 0 = no answer at all (refused, reset, timed out): transient as far as we can tell.
  return err.status === 0 || err.status >= 500;
}
