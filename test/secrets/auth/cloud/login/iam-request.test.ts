/** Decoding and checking the signed caller-identity request of an iam login. */
import { describe, expect, it } from 'vitest';
import { canonicalHeaderName, checkServerIdHeader, decodeIamRequest, regionFromAuthorization, validateIamRequest } from '../../../../../src/secrets/auth/cloud/login/iam-request.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const AUTH = 'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20261123/us-west-2/sts/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-svc-cloud-iam-server-id, Signature=abc';
const headers = { Authorization: AUTH, 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', 'X-Amz-Date': '20261123T000000Z', 'X-Svc-Cloud-IAM-Server-ID': 'vault.example' };
const post = (over: Record<string, unknown> = {}) =>
  decodeIamRequest({
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
    iam_request_headers: headers,
    ...over,
  });

describe('decodeIamRequest', () => {
  it('decodes a POST request; headers as an object, a JSON string or base64 JSON; values string or list', () => {
    for (const h of [headers, JSON.stringify(headers), b64(JSON.stringify(headers)), { ...headers, 'X-Amz-Date': ['20261123T000000Z'] }]) {
      const r = post({ iam_request_headers: h });
      expect(r.method).toBe('POST');
      expect(r.url.host).toBe('sts.amazonaws.com');
      expect(r.body).toBe('Action=GetCallerIdentity&Version=2011-06-15');
      expect(r.headers['X-Amz-Date']).toEqual(['20261123T000000Z']);
      expect(r.headers['X-Svc-Cloud-Iam-Server-Id']).toEqual(['vault.example']);
    }
  });

  it('names what is missing or undecodable', () => {
    expect(() => post({ iam_http_request_method: undefined })).toThrow('missing iam_http_request_method');
    expect(() => post({ iam_http_request_method: 'PUT' })).toThrow(/only 'GET' and 'POST'/);
    expect(() => post({ iam_request_url: undefined })).toThrow('missing iam_request_url');
    expect(() => post({ iam_request_url: '%%%' })).toThrow('failed to base64 decode iam_request_url');
    expect(() => post({ iam_request_url: b64('not a url') })).toThrow(/error parsing iam_request_url/);
    expect(() => post({ iam_request_body: undefined })).toThrow('missing iam_request_body which is required for POST requests');
    expect(() => post({ iam_request_headers: undefined })).toThrow('missing iam_request_headers');
    expect(() => post({ iam_request_headers: '' })).toThrow('missing iam_request_headers');
    expect(() => post({ iam_request_headers: 'nonsense' })).toThrow(/must be a JSON object/);
    expect(() => post({ iam_request_headers: { A: { b: 1 } } })).toThrow(/header "A" must be a string or a list/);
  });

  it('needs no body for GET', () => {
    const r = decodeIamRequest({ iam_http_request_method: 'GET', iam_request_url: b64('https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15'), iam_request_headers: headers });
    expect(r.body).toBe('');
  });
});

describe('validateIamRequest', () => {
  const get = (query: string) => decodeIamRequest({ iam_http_request_method: 'GET', iam_request_url: b64(`https://sts.amazonaws.com/?${query}`), iam_request_headers: headers });

  it('allows only GetCallerIdentity, once', () => {
    expect(() => validateIamRequest(post(), undefined)).not.toThrow();
    expect(() => validateIamRequest(post({ iam_request_body: b64('Action=AssumeRole&Version=2011-06-15') }), undefined)).toThrow(/iam request body is invalid/);
    expect(() => validateIamRequest(post({ iam_request_body: b64('Action=GetCallerIdentity&Action=GetCallerIdentity') }), undefined)).toThrow(/iam request body is invalid/);
    expect(() => validateIamRequest(post({ iam_request_body: b64('Action=GetCallerIdentity&RoleArn=x') }), undefined)).toThrow(/iam request body is invalid/);
    expect(() => validateIamRequest(post({ iam_request_url: b64('https://sts.amazonaws.com/?Action=AssumeRole') }), undefined)).toThrow(/no query string/);
    expect(() => validateIamRequest(get('Action=GetCallerIdentity'), undefined)).not.toThrow();
    expect(() => validateIamRequest(get('Version=1'), undefined)).toThrow('no action found in request');
    expect(() => validateIamRequest(get('Action=GetCallerIdentity&Action=GetCallerIdentity'), undefined)).toThrow('found multiple actions');
    expect(() => validateIamRequest(get('Action=AssumeRole'), undefined)).toThrow('unexpected action parameter, AssumeRole');
  });

  it('with a client configuration, refuses X-Amz-* headers and query params outside the default list and allowed_sts_header_values', () => {
    const extra = post({ iam_request_headers: { ...headers, 'x-amz-custom': '1' } });
    expect(() => validateIamRequest(extra, undefined)).not.toThrow();
    expect(() => validateIamRequest(extra, [])).toThrow('invalid request header: X-Amz-Custom');
    expect(() => validateIamRequest(extra, ['x-amz-custom'])).not.toThrow();
    expect(() => validateIamRequest(post({ iam_request_headers: { ...headers, 'X-Amz-Security-Token': 't', 'User-Agent': 'x' } }), [])).not.toThrow();
    expect(() => validateIamRequest(get('Action=GetCallerIdentity&X-Amz-Foo=1'), [])).toThrow('invalid request query param: X-Amz-Foo');
  });
});

describe('checkServerIdHeader', () => {
  it('needs the header present, equal and among the signed headers', () => {
    expect(() => checkServerIdHeader(post(), 'vault.example')).not.toThrow();
    const { 'X-Svc-Cloud-IAM-Server-ID': _gone, ...without } = headers;
    expect(() => checkServerIdHeader(post({ iam_request_headers: without }), 'vault.example')).toThrow(/X-Svc-Cloud-IAM-Server-ID header: missing header/);
    expect(() => checkServerIdHeader(post(), 'other')).toThrow(/expected "other" but got "vault.example"/);
    const unsigned = { ...headers, Authorization: AUTH.replace(';x-svc-cloud-iam-server-id', '') };
    expect(() => checkServerIdHeader(post({ iam_request_headers: unsigned }), 'vault.example')).toThrow(/was not signed/);
    const { Authorization: _a, ...noAuth } = headers;
    expect(() => checkServerIdHeader(post({ iam_request_headers: noAuth }), 'vault.example')).toThrow(/missing Authorization header/);
  });
});

describe('regionFromAuthorization and header names', () => {
  it('reads the signing region from the credential scope', () => {
    expect(regionFromAuthorization(post())).toBe('us-west-2');
    expect(() => regionFromAuthorization(post({ iam_request_headers: { 'X-Amz-Date': 'x' } }))).toThrow('region missing from Authorization header');
  });
  it('canonicalises header names', () => {
    expect(canonicalHeaderName('x-amz-security-token')).toBe('X-Amz-Security-Token');
  });
});
