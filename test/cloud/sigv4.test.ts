/**
 * The Signature V4 signer: its derived signing keys are kept per secret, day, region and service, so a
 * signature is a function of all of them and never of an earlier call's key; the path is signed as the
 * provider canonicalises it. The provider's own check of these signatures is in signed-request.test.ts.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import aws4 from 'aws4';
import { canonicalPath, FORM_CONTENT_TYPE, signQuery, type SignedQuery } from '../../src/cloud/sigv4.js';

const now = new Date('2026-03-04T05:06:07.890Z');
const query = (over: Partial<SignedQuery> = {}): SignedQuery => ({
  host: 'ec2.eu-west-3.amazonaws.com',
  path: '/',
  service: 'ec2',
  region: 'eu-west-3',
  body: 'Action=DescribeInstances&Version=2016-11-15',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'first-secret' },
  now,
  ...over,
});
const signatureOf = (headers: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(headers.Authorization)?.[1];

/** The signature computed from scratch, without any kept key. */
function expected(q: SignedQuery): string {
  const hex = (s: string) => createHash('sha256').update(s).digest('hex');
  const hmac = (k: string | Buffer, d: string) => createHmac('sha256', k).update(d).digest();
  const canonical = ['POST', '/', '', `content-type:${FORM_CONTENT_TYPE}`, `host:${q.host}`, 'x-amz-date:20260304T050607Z', '', 'content-type;host;x-amz-date', hex(q.body)].join('\n');
  const scope = `20260304/${q.region}/${q.service}/aws4_request`;
  const key = hmac(hmac(hmac(hmac(`AWS4${q.credentials.secretAccessKey}`, '20260304'), q.region), q.service), 'aws4_request');
  return createHmac('sha256', key).update(['AWS4-HMAC-SHA256', '20260304T050607Z', scope, hex(canonical)].join('\n')).digest('hex');
}

describe('signQuery', () => {
  it('signs with the key of its own secret, region and service, whatever was signed before', () => {
    const variants = [
      query(),
      query({ credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'second-secret' } }),
      query({ region: 'us-east-1' }),
      query({ service: 'iam' }),
      query(),
    ];
    const signatures = variants.map((q) => signatureOf(signQuery(q)));
    variants.forEach((q, i) => expect(signatures[i]).toBe(expected(q)));
    expect(new Set(signatures.slice(0, 4)).size).toBe(4);
  });

  it('sends the date, the scope, the signed headers and the session token of temporary credentials', () => {
    const headers = signQuery(query({ credentials: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 's', sessionToken: 'token' } }));
    expect(headers).toMatchObject({ Host: 'ec2.eu-west-3.amazonaws.com', 'Content-Type': FORM_CONTENT_TYPE, 'X-Amz-Date': '20260304T050607Z', 'X-Amz-Security-Token': 'token' });
    expect(headers.Authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE\/20260304\/eu-west-3\/ec2\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=/);
  });
});

describe('canonicalPath', () => {
  it('resolves dot segments, drops empty ones and encodes each segment once', () => {
    expect(canonicalPath('')).toBe('/');
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('/prefix/')).toBe('/prefix/');
    expect(canonicalPath('//a/./b/../c')).toBe('/a/c');
    expect(canonicalPath('/a%20b/c d')).toBe('/a%20b/c%20d');
  });
});

describe('signQuery against aws4', () => {
  it('signs every call exactly as the aws4 library does (the same Authorization header)', () => {
    const cases = [
      query(),
      query({ credentials: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'other', sessionToken: 'session/token+1=' } }),
      query({ region: 'us-east-1', service: 'sts', host: 'sts.us-east-1.amazonaws.com', body: 'Action=GetCallerIdentity&Version=2011-06-15' }),
      query({ path: '/prefix/a b/../c', body: '' }),
    ];
    for (const q of cases) {
      const ours = signQuery(q);
      // The same headers signed (aws4 would add and sign Content-Length, which the provider does not require).
      const headers: Record<string, string> = { Host: q.host, 'Content-Type': FORM_CONTENT_TYPE, 'X-Amz-Date': ours['X-Amz-Date'] };
      if (q.credentials.sessionToken) headers['X-Amz-Security-Token'] = q.credentials.sessionToken;
      // aws4 dates a request by the clock.
      vi.useFakeTimers({ now: q.now, toFake: ['Date'] });
      let theirs: aws4.Request;
      try {
        theirs = aws4.sign({ host: q.host, path: q.path, service: q.service, region: q.region, method: 'POST', body: q.body, headers, doNotModifyHeaders: true } as aws4.Request, q.credentials);
      } finally {
        vi.useRealTimers();
      }
      expect(ours.Authorization).toBe(theirs.headers?.Authorization);
    }
  });
});
