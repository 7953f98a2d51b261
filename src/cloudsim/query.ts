/** What the IAM, STS and EC2 actions share: the authenticated call, required parameters, paging, the IAM/STS answer envelope. */
import { ApiError } from './errors.js';
import type { ParsedAuth } from './sigv4.js';
import type { KeyRecord, SimState } from './state.js';
import { el, NS, xmlDoc, type XmlNode } from './xml.js';

/** A call whose signature was verified: the caller's key, its parameters and the request ID of the answer. */
export interface Call {
  k: KeyRecord;
  params: Record<string, string>;
  auth: ParsedAuth;
  requestId: string;
}

/** An IAM or STS action: the children of its `<Action>Result` element, or null when it has none. */
export type Action = (s: SimState, call: Call) => XmlNode[] | null;

export function required(call: Call, name: string): string {
  const v = call.params[name];
  if (v === undefined || v === '') {
    const member = name[0].toLowerCase() + name.slice(1);
    throw new ApiError('ValidationError', `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`, 400);
  }
  return v;
}

/** One page of `all` from the opaque continuation token `token` (see setPageSize). */
export function paginate<T>(s: SimState, all: T[], token: string | undefined, param: string): { page: T[]; next?: string } {
  let start = 0;
  if (token) {
    const m = /^cloudsim-page-(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
    if (!m) throw new ApiError(param === 'Marker' ? 'ValidationError' : 'InvalidParameterValue', `Invalid ${param}: ${token}`, 400);
    start = Number(m[1]);
  }
  if (s.pageSize === undefined) return { page: all.slice(start) };
  const end = start + s.pageSize;
  return { page: all.slice(start, end), next: end < all.length ? Buffer.from(`cloudsim-page-${end}`).toString('base64') : undefined };
}

export function queryResponse(service: 'iam' | 'sts', action: string, result: XmlNode[] | null, requestId: string): string {
  const children: XmlNode[] = [];
  if (result) children.push(el(`${action}Result`, result));
  children.push(el('ResponseMetadata', [el('RequestId', requestId)]));
  return xmlDoc(el(`${action}Response`, children, { xmlns: NS[service] }), false);
}
