/**
 * Role tags at ec2 login: a role with role_tag admits an instance only with a valid tag under that key;
 * the tag's policies replace the role's, its max_ttl narrows the token, d=true stops reauthentication,
 * i= restricts it to one instance, a deny-listed or foreign tag is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
beforeAll(async () => {
  w = await startLoginWorld();
  await w.writeRole('tagged', { auth_type: 'ec2', bound_account_id: w.sim.account, role_tag: 'svc-role', token_policies: 'a,b' });
  await w.writeRole('other', { auth_type: 'ec2', bound_account_id: w.sim.account, role_tag: 'svc-role', token_policies: 'a,b' });
});
afterAll(async () => w?.close());

async function tag(role: string, body: Record<string, unknown> = {}): Promise<string> {
  const answer = await w.srv.client().secrets('POST', `auth/cloud/role/${role}/tag`, { body });
  return (answer?.data as { tag_value: string }).tag_value;
}

async function instanceWithTag(value: string | undefined, key = 'svc-role') {
  const inst = w.sim.addInstance({ tags: value === undefined ? {} : { [key]: value } });
  return { id: inst.instanceId, pkcs7: (await w.documents(inst.instanceId)).rsa2048 };
}

describe('admission', () => {
  it("a tag with the role's policies admits the instance with them", async () => {
    const inst = await instanceWithTag(await tag('tagged'));
    const { auth } = await w.login({ role: 'tagged', pkcs7: inst.pkcs7 });
    expect(auth.token_policies).toEqual(['a', 'b', 'default']);
    expect(auth.metadata).toMatchObject({ role_tag_max_ttl: '0s' });
  });

  it('no tag, an empty tag, or a tag under another key: refused, naming the key', async () => {
    for (const inst of [await instanceWithTag(undefined), await instanceWithTag(''), await instanceWithTag(await tag('tagged'), 'other-key')]) {
      expect(await w.loginError({ role: 'tagged', pkcs7: inst.pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('missing tag with key "svc-role" on the instance') });
    }
  });

  it('a tag whose signature does not verify is refused', async () => {
    const value = await tag('tagged');
    const forged = value.replace(/:[^:]+$/, ':' + Buffer.alloc(32).toString('base64'));
    const inst = await instanceWithTag(forged);
    expect(await w.loginError({ role: 'tagged', pkcs7: inst.pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('role tag signature verification failed') });
  });

  it("another role's tag is refused", async () => {
    const inst = await instanceWithTag(await tag('other'));
    expect(await w.loginError({ role: 'tagged', pkcs7: inst.pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('role on the tag is not matching the role supplied') });
  });

  it('a tag for one instance works there only', async () => {
    const mine = w.sim.addInstance();
    const value = await tag('tagged', { instance_id: mine.instanceId });
    w.sim.getInstance(mine.instanceId).tags['svc-role'] = value;
    await w.login({ role: 'tagged', pkcs7: (await w.documents(mine.instanceId)).rsa2048 });
    const elsewhere = await instanceWithTag(value);
    expect(await w.loginError({ role: 'tagged', pkcs7: elsewhere.pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('role tag is being used by an unauthorized instance') });
  });

  it('a deny-listed tag is refused; tokens issued with it stay valid', async () => {
    const value = await tag('tagged');
    const inst = await instanceWithTag(value);
    const { auth } = await w.login({ role: 'tagged', pkcs7: inst.pkcs7, nonce: 'n1' });
    await w.srv.client().secrets('POST', `auth/cloud/roletag-denylist/${Buffer.from(value).toString('base64')}`);
    expect(await w.loginError({ role: 'tagged', pkcs7: inst.pkcs7, nonce: 'n1' })).toEqual({ status: 400, message: expect.stringContaining('role tag is deny listed') });
    const self = await w.srv.client(auth.client_token).secrets('GET', 'auth/token/lookup-self');
    expect(self?.data?.accessor).toBe(auth.accessor);
  });

  it('a tag whose policies the role no longer grants is refused', async () => {
    await w.writeRole('shrinking', { auth_type: 'ec2', bound_account_id: w.sim.account, role_tag: 'svc-role', token_policies: 'a,b' });
    const inst = await instanceWithTag(await tag('shrinking', { policies: 'b' }));
    await w.writeRole('shrinking', { token_policies: 'a' });
    expect(await w.loginError({ role: 'shrinking', pkcs7: inst.pkcs7 })).toEqual({
      status: 400,
      message: expect.stringContaining('policies on the role tag must be subset of policies on the role'),
    });
  });
});

describe('what a tag changes', () => {
  it("its policies replace the role's", async () => {
    const inst = await instanceWithTag(await tag('tagged', { policies: 'b' }));
    const { auth } = await w.login({ role: 'tagged', pkcs7: inst.pkcs7 });
    expect(auth.token_policies).toEqual(['b', 'default']);
  });

  it("a tag replaced on the instance replaces what it gets: the next login has the new tag's policies", async () => {
    const inst = w.sim.addInstance({ tags: { 'svc-role': await tag('tagged', { policies: 'b' }) } });
    const pkcs7 = (await w.documents(inst.instanceId)).rsa2048;
    const first = await w.login({ role: 'tagged', pkcs7, nonce: 'replaced-tag-nonce' });
    expect(first.auth.token_policies).toEqual(['b', 'default']);
    w.sim.getInstance(inst.instanceId).tags['svc-role'] = await tag('tagged', { policies: 'a', max_ttl: '1h' });
    const second = await w.login({ role: 'tagged', pkcs7, nonce: 'replaced-tag-nonce' });
    expect(second.auth.token_policies).toEqual(['a', 'default']);
    expect(second.auth.lease_duration).toBe(3600);
  });

  it('empty policies give the default policy only', async () => {
    const inst = await instanceWithTag(await tag('tagged', { policies: '' }));
    const { auth } = await w.login({ role: 'tagged', pkcs7: inst.pkcs7 });
    expect(auth.token_policies).toEqual(['default']);
  });

  it('its max_ttl narrows the token and shows in the metadata; the access list keeps the longest', async () => {
    const inst = await instanceWithTag(await tag('tagged', { max_ttl: '90m' }));
    const before = Date.now();
    const { auth } = await w.login({ role: 'tagged', pkcs7: inst.pkcs7 });
    expect(auth.lease_duration).toBe(5400);
    expect(auth.metadata?.role_tag_max_ttl).toBe('1h30m0s');
    const entry = (await w.srv.client().secrets('GET', `auth/cloud/identity-accesslist/${inst.id}`))?.data as { expiration_time: string };
    expect(Date.parse(entry.expiration_time) - before).toBeGreaterThan(768 * 3600 * 1000 - 5000);
  });

  it('d=true stops reauthentication although the role allows it', async () => {
    const inst = await instanceWithTag(await tag('tagged', { disallow_reauthentication: true }));
    const first = await w.login({ role: 'tagged', pkcs7: inst.pkcs7 });
    expect(first.auth.metadata?.nonce).toBeUndefined();
    expect(await w.loginError({ role: 'tagged', pkcs7: inst.pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
  });

  it('a role without role_tag ignores instance tags', async () => {
    await w.writeRole('untagged', { auth_type: 'ec2', bound_account_id: w.sim.account, token_policies: 'a' });
    const inst = await instanceWithTag('v1:garbage:r=untagged:d=false:m=false:AAAA');
    const { auth } = await w.login({ role: 'untagged', pkcs7: inst.pkcs7 });
    expect(auth.token_policies).toEqual(['a', 'default']);
  });
});
