/**
 * The base64 of the iam_* fields is read as the established implementation reads it:
 * standard base64 where line breaks, as base64(1) writes them, are skipped.
 * Header values that HTTP cannot carry are refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimUser } from '../../../../../src/cloudsim/index.js';
import { b64, presignedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
let alice: SimUser;

beforeAll(async () => {
  w = await startLoginWorld();
  alice = w.sim.addUser({ name: 'alice' });
  await w.writeRole('dev', { bound_iam_principal_arn: alice.arn });
});
afterAll(async () => w?.close());

describe('base64 of the iam_* fields is decoded as the established implementation decodes it', () => {
  // Vault decodes iam_request_url and iam_request_body with Go's base64.StdEncoding, which ignores \r and
  // \n. A presigned GET URL is long, and `base64` (coreutils) wraps its output at 76 columns by default,
  // so shell-script clients send it wrapped; the established server accepts that.
  it('a presigned GET URL base64-encoded with line breaks (\\n or \\r\\n every 76 columns) logs in', async () => {
    const fields = presignedCallerIdentity(alice);
    const url = Buffer.from(fields.iam_request_url, 'base64').toString('utf8');
    const encoded = Buffer.from(url, 'utf8').toString('base64');
    expect(encoded.length).toBeGreaterThan(76);
    for (const eol of ['\n', '\r\n']) {
      const wrapped = encoded.replace(/(.{76})/g, `$1${eol}`);
      const { auth } = await w.login({ role: 'dev', ...fields, iam_request_url: wrapped });
      expect(auth.metadata?.auth_type).toBe('iam');
    }
  });
});

describe('headers that cannot be sent', () => {
  it('a header value with a line break is refused at once, and nothing is sent', async () => {
    const from = w.sim.requests.length;
    const headers = b64(JSON.stringify({ 'X-Evil': ['a\r\nInjected: yes'] }));
    const r = await w.loginError({ role: 'dev', iam_http_request_method: 'POST', iam_request_url: b64('https://sts.amazonaws.com/'), iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'), iam_request_headers: headers });
    expect(r).toEqual({ status: 400, message: expect.stringContaining('header "X-Evil"') });
    expect(w.sim.requests.slice(from)).toEqual([]);
  });
});
