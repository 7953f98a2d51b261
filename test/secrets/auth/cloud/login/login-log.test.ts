/**
 * A refused login is logged for the operator with what failed, the mount, the role and the caller's
 * address, and never with what proves the caller's identity (document, signature, nonce, signed headers).
 * Nor does any log line, at any level, or any refusal answered hold the secrets of a login: the token it
 * issues, the nonce, the caller's session token and request signature.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requestHeaders, signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

const logs: string[] = [];
let w: LoginWorld;
beforeAll(async () => {
  w = await startLoginWorld({ server: { logWrite: (l) => logs.push(l), logLevel: 'debug' } });
  await w.writeRole('web', { auth_type: 'ec2', bound_account_id: '111111111111' });
});
afterAll(async () => w?.close());

it('an ec2 refusal names the bound that failed, and the log holds no document or nonce', async () => {
  const inst = w.sim.addInstance();
  const docs = await w.documents(inst.instanceId);
  const nonce = 'a-very-secret-client-nonce';
  const { message } = await w.loginError({ role: 'web', pkcs7: docs.rsa2048, nonce });
  expect(message).toContain('account ID');
  const line = logs.find((l) => l.includes('cloud login refused'));
  expect(line).toMatch(/mount=auth\/cloud\/ type=ec2 role="web" from=127\.0\.0\.1: Error validating instance: account ID/);
  const all = logs.join('');
  expect(all).not.toContain(nonce);
  expect(all).not.toContain(docs.rsa2048.slice(0, 40));
});

it('an iam refusal is logged without the signed request', async () => {
  const user = w.sim.addUser({ name: 'mallory' });
  const fields = signedCallerIdentity(user);
  const { status } = await w.loginError({ role: 'nobody', ...fields });
  expect(status).toBe(400);
  expect(logs.some((l) => /cloud login refused: .* type=iam role="nobody" .*entry for role "nobody" not found/.test(l))).toBe(true);
  const all = logs.join('');
  expect(all).not.toContain(fields.iam_request_headers.slice(0, 40));
  expect(all).not.toContain(user.secretAccessKey);
});

it('successful and refused logins leave no token, nonce, session token or signature in the log or in a refusal', async () => {
  await w.writeRole('ec2-ok', { auth_type: 'ec2', bound_account_id: w.sim.account });
  const inst = w.sim.addInstance();
  const docs = await w.documents(inst.instanceId);
  const ec2 = await w.login({ role: 'ec2-ok', pkcs7: docs.rsa2048 });
  const nonce = ec2.auth.metadata!.nonce;
  const wrongNonce = await w.loginError({ role: 'ec2-ok', pkcs7: docs.rsa2048, nonce: `${nonce}-guess` });

  const deployer = w.sim.addRole({ name: 'log-deployer' });
  await w.writeRole('iam-ok', { auth_type: 'iam', bound_iam_principal_arn: deployer.arn });
  const session = w.sim.assumeRole(deployer.arn, 'log-session');
  const fields = signedCallerIdentity(session);
  const iam = await w.login({ role: 'iam-ok', ...fields });
  const refusals = [wrongNonce, await w.loginError({ role: 'ec2-ok', ...fields }), await w.loginError({ role: 'nobody', ...fields })];

  const signature = /Signature=([0-9a-f]+)/.exec(requestHeaders(fields).Authorization[0])![1];
  const secrets = [ec2.auth.client_token, ec2.auth.accessor, nonce, iam.auth.client_token, iam.auth.accessor, session.sessionToken!, session.secretAccessKey, signature];
  const all = logs.join('');
  for (const secret of secrets) {
    expect(all).not.toContain(secret);
    for (const r of refusals) expect(r.message).not.toContain(secret);
  }
  expect(all).toContain('cloud login refused');
});
