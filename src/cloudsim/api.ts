/**
 * One call to the ec2/iam/sts endpoint, from request to answer: logged, authenticated (the service taken
 * from the credential scope), then the test hooks, then the action.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { describeInstances } from './compute.js';
import { ApiError, ec2AuthError, errorBody } from './errors.js';
import { take } from './hooks.js';
import { headerMap, send } from './http.js';
import { identityActions } from './identity.js';
import { queryResponse, type Call } from './query.js';
import { authenticate } from './signed-request.js';
import { AuthError, parseAuth, parseQuery, type ParsedAuth, type SigInput } from './sigv4.js';
import { now, type KeyRecord, type SimRequest, type SimState } from './state.js';
import { tokenServiceActions } from './token-service.js';

export async function handleApi(s: SimState, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const requestId = randomUUID();
  const rawUrl = req.url ?? '/';
  const qi = rawUrl.indexOf('?');
  const inp: SigInput = {
    method: req.method ?? 'GET',
    path: qi < 0 ? rawUrl : rawUrl.slice(0, qi),
    query: qi < 0 ? '' : rawUrl.slice(qi + 1),
    headers: headerMap(req),
    body,
  };
  const params: Record<string, string> = {};
  for (const [k, v] of parseQuery(inp.query)) if (!k.startsWith('X-Amz-')) params[k] = v;
  const ct = (req.headers['content-type'] ?? '').toLowerCase();
  if (body.length && (ct.startsWith('application/x-www-form-urlencoded') || ct === '')) for (const [k, v] of parseQuery(body.toString('utf8'))) params[k] = v;
  const action = params.Action ?? '';
  const entry: SimRequest = {
    time: now(s),
    service: '',
    action,
    accessKeyId: '',
    region: '',
    method: inp.method,
    host: req.headers.host ?? '',
    path: inp.path,
    status: 200,
    params,
    requestId,
    signedHeaders: [],
  };
  s.requests.push(entry);
  const fail = (service: string, status: number, code: string, message: string) => {
    entry.status = status;
    entry.errorCode = code;
    const ctype = service === 'ec2' ? 'text/xml;charset=UTF-8' : 'text/xml';
    send(res, status, errorBody(service, code, message, requestId), ctype, { 'x-amzn-RequestId': requestId });
  };

  let auth: ParsedAuth | undefined;
  try {
    auth = parseAuth(inp);
  } catch (e) {
    if (e instanceof AuthError) return fail('sts', e.status, e.code, e.message);
    throw e;
  }
  if (!auth) return fail('sts', 403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
  const service = auth.service;
  entry.service = service;
  entry.accessKeyId = auth.accessKeyId;
  entry.region = auth.region;
  entry.signedHeaders = auth.signedHeaders;
  if (service !== 'ec2' && service !== 'iam' && service !== 'sts')
    return fail('sts', 400, 'UnknownService', `cloudsim does not simulate service "${service}"`);

  let k: KeyRecord;
  try {
    k = authenticate(s, inp, auth);
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    const err = service === 'ec2' ? ec2AuthError(e) : e;
    return fail(service, err.status, err.code, err.message);
  }

  const d = take(s.delays, action);
  if (d) {
    await new Promise((r) => setTimeout(r, d.ms));
    if (res.destroyed) return; // the caller gave up waiting
  }

  const f = take(s.failures, action);
  if (f) return fail(service, f.status, f.code, f.message);

  const c = take(s.canned, action);
  if (c) {
    entry.status = c.status;
    entry.requestId = '';
    return send(res, c.status, c.body, c.contentType);
  }

  if (!action) return fail(service, 400, 'MissingAction', 'Missing Action');
  const call: Call = { k, params, auth, requestId };
  try {
    if (service === 'ec2') {
      if (action !== 'DescribeInstances') throw new ApiError('InvalidAction', `The action ${action} is not valid for this web service.`, 400);
      return send(res, 200, describeInstances(s, call), 'text/xml;charset=UTF-8');
    }
    const table = service === 'iam' ? identityActions : tokenServiceActions;
    const h = table[action];
    if (!h) throw new ApiError('InvalidAction', `Could not find operation ${action} for version ${params.Version ?? 'NO_VERSION_SPECIFIED'}`, 400);
    const result = h(s, call);
    return send(res, 200, queryResponse(service, action, result, requestId), 'text/xml', { 'x-amzn-RequestId': requestId });
  } catch (e) {
    if (e instanceof ApiError) return fail(service, e.status, e.code, e.message);
    throw e;
  }
}
