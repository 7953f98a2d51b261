/** Logins counted as Vault's vault.core.handle_login_request, by auth method, login type and result. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimUser } from '../../../../../src/cloudsim/index.js';
import { signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
let alice: SimUser;

beforeAll(async () => {
  w = await startLoginWorld();
  alice = w.sim.addUser({ name: 'alice' });
});
afterAll(async () => w?.close());

/** How many logins of this type and result sys/metrics has counted. */
async function logins(type: string, result: string): Promise<number> {
  const metrics = (await w.srv.client().secrets('GET', 'sys/metrics')) as unknown as { Samples: Array<{ Name: string; Count: number; Labels: Record<string, string> }> };
  const found = metrics.Samples.find((s) => s.Name === 'vault.core.handle_login_request' && s.Labels.auth_method === 'cloud' && s.Labels.login_type === type && s.Labels.result === result);
  return found?.Count ?? 0;
}

describe('login metrics', () => {
  it('counts a login that succeeds and one that is refused, each under its result', async () => {
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn });
    const before = { success: await logins('iam', 'success'), denied: await logins('iam', 'denied') };
    expect((await w.login({ role: 'dev', ...signedCallerIdentity(alice) })).auth.client_token).toBeTruthy();
    expect(await logins('iam', 'success')).toBe(before.success + 1);
    expect((await w.loginError({ role: 'nobody', ...signedCallerIdentity(alice) })).status).toBe(400);
    expect(await logins('iam', 'denied')).toBe(before.denied + 1);
    expect(await logins('iam', 'success')).toBe(before.success + 1);
  });
});
