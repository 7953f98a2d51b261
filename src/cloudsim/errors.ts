/** The provider's error answers: the failure an action raises, and the error document each service writes. */
import { AuthError } from './sigv4.js';
import { el, NS, xmlDoc } from './xml.js';

/** A refusal by an action, answered with the service's error document. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export function errorBody(service: string, code: string, message: string, requestId: string): string {
  if (service === 'ec2')
    return xmlDoc(el('Response', [el('Errors', [el('Error', [el('Code', code), el('Message', message)])]), el('RequestID', requestId)]), true);
  const ns = service === 'iam' ? NS.iam : NS.sts;
  const type = /^(InternalFailure|ServiceUnavailable|InternalError)$/.test(code) ? 'Receiver' : 'Sender';
  return xmlDoc(
    el('ErrorResponse', [el('Error', [el('Type', type), el('Code', code), el('Message', message)]), el('RequestId', requestId)], { xmlns: ns }),
    false,
  );
}

/** The same authentication failure is spelled differently by EC2. */
export function ec2AuthError(e: AuthError): AuthError {
  switch (e.code) {
    case 'InvalidClientTokenId':
      return new AuthError('AuthFailure', 'AWS was not able to validate the provided access credentials', 401);
    case 'ExpiredToken':
      return new AuthError('RequestExpired', 'Request has expired.', 400);
    default:
      if (e.message.startsWith('Signature expired') || e.message.startsWith('Signature not yet current'))
        return new AuthError('RequestExpired', `Request has expired. ${e.message}`, 400);
      return e;
  }
}
