/**
 * The nonce and the access list (the login rules on nonces and the access list): a nonce made and returned on
 * the first login, required afterwards and never changed; a client's own nonce; an empty nonce turning
 * reauthentication off; disallow_reauthentication; migration with a strictly newer pendingTime; an older
 * pendingTime always refused; the entry written on every success with its expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
beforeAll(async () => {
  w = await startLoginWorld();
  await w.writeRole('plain', { auth_type: 'ec2', bound_account_id: w.sim.account, token_max_ttl: 7200 });
  await w.writeRole('once', { auth_type: 'ec2', bound_account_id: w.sim.account, disallow_reauthentication: true });
  await w.writeRole('movable', { auth_type: 'ec2', bound_account_id: w.sim.account, allow_instance_migration: true });
});
afterAll(async () => w?.close());

async function freshInstance(pendingTime = '2024-01-02T03:04:05Z') {
  const inst = w.sim.addInstance({ pendingTime });
  return { id: inst.instanceId, pkcs7: async () => (await w.documents(inst.instanceId)).rsa2048 };
}

const entryOf = async (id: string) => (await w.srv.client().secrets('GET', `auth/cloud/identity-accesslist/${id}`))?.data as Record<string, unknown>;

describe('server-made nonce', () => {
  it('the first login returns a nonce; the next must send it; the nonce never changes', async () => {
    const inst = await freshInstance();
    const first = await w.login({ role: 'plain', pkcs7: await inst.pkcs7() });
    const nonce = first.auth.metadata?.nonce;
    expect(nonce).toMatch(/^[0-9a-f-]{36}$/);

    const without = await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7() });
    expect(without).toEqual({ status: 400, message: expect.stringContaining('client nonce mismatch') });
    const wrong = await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'guess' });
    expect(wrong).toEqual({ status: 400, message: expect.stringContaining('client nonce mismatch') });

    const second = await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce });
    expect(second.auth.metadata?.nonce).toBeUndefined();
    const third = await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce });
    expect(third.auth.client_token).not.toBe(second.auth.client_token);
  });

  it('the access-list entry records the login and the nonce handed out', async () => {
    const inst = await freshInstance('2024-02-03T04:05:06Z');
    const before = Date.now();
    const { auth } = await w.login({ role: 'plain', pkcs7: await inst.pkcs7() });
    const entry = await entryOf(inst.id);
    expect(entry).toMatchObject({ role: 'plain', pending_time: '2024-02-03T04:05:06Z', disallow_reauthentication: false });
    expect(entry.client_nonce).toBe(auth.metadata!.nonce);
    // Expiry = now + the longest max TTL: the mount's (32 days) is longer than the role's 2 hours.
    const expiry = Date.parse(entry.expiration_time as string);
    expect(expiry - before).toBeGreaterThanOrEqual(768 * 3600 * 1000 - 5000);
    expect(expiry - before).toBeLessThanOrEqual(768 * 3600 * 1000 + 5000);
    const created = entry.creation_time;
    await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: auth.metadata!.nonce });
    const again = await entryOf(inst.id);
    expect(again.creation_time).toBe(created);
    expect(Date.parse(again.last_updated_time as string)).toBeGreaterThanOrEqual(Date.parse(entry.last_updated_time as string));
  });

  it('the token max TTL is the shortest of the mount, the role and a tag; here the role', async () => {
    const inst = await freshInstance();
    const { auth } = await w.login({ role: 'plain', pkcs7: await inst.pkcs7() });
    expect(auth.lease_duration).toBe(7200);
  });
});

describe("a client's nonce", () => {
  it('is kept and required later; it is not echoed', async () => {
    const inst = await freshInstance();
    const first = await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'my-own-strong-nonce' });
    expect(first.auth.metadata?.nonce).toBeUndefined();
    await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'my-own-strong-nonce' });
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'another' })).toMatchObject({ status: 400 });
  });

  it('longer than 128 characters is refused and nothing is stored', async () => {
    const inst = await freshInstance();
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'n'.repeat(129) })).toEqual({
      status: 400,
      message: expect.stringContaining('client nonce exceeding the limit of 128 characters'),
    });
    await expect(entryOf(inst.id)).rejects.toMatchObject({ statusCode: 404 });
    await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'n'.repeat(128) });
  });

  it('empty means no reauthentication: the login works once, the entry keeps no nonce', async () => {
    const inst = await freshInstance();
    const first = await w.login({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: '' });
    expect(first.auth.metadata?.nonce).toBeUndefined();
    expect(await entryOf(inst.id)).toMatchObject({ disallow_reauthentication: true });
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7() })).toEqual({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: '' })).toEqual({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
  });
});

describe('disallow_reauthentication', () => {
  it('on the role: one login per instance, no nonce returned, until the entry is deleted', async () => {
    const inst = await freshInstance();
    const first = await w.login({ role: 'once', pkcs7: await inst.pkcs7() });
    expect(first.auth.metadata?.nonce).toBeUndefined();
    expect(await w.loginError({ role: 'once', pkcs7: await inst.pkcs7() })).toMatchObject({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
    await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${inst.id}`);
    await w.login({ role: 'once', pkcs7: await inst.pkcs7() });
  });

  it('on the role, a nonce sent has no significance: of any length, not stored, not echoed, not a way back in', async () => {
    const inst = await freshInstance();
    const nonce = 'n'.repeat(200);
    const first = await w.login({ role: 'once', pkcs7: await inst.pkcs7(), nonce });
    expect(first.auth.metadata?.nonce).toBeUndefined();
    expect(await entryOf(inst.id)).toMatchObject({ disallow_reauthentication: true, client_nonce: '' });
    expect(await w.loginError({ role: 'once', pkcs7: await inst.pkcs7(), nonce })).toMatchObject({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
  });

  it('a disallowed instance stays disallowed when logging in to a role that allows it', async () => {
    const inst = await freshInstance();
    await w.login({ role: 'once', pkcs7: await inst.pkcs7() });
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'x' })).toMatchObject({ status: 400, message: expect.stringContaining('reauthentication is disabled') });
  });
});

describe('migration and pendingTime', () => {
  it('allow_instance_migration: without the nonce only with a strictly newer pendingTime', async () => {
    const inst = await freshInstance('2024-01-02T03:04:05Z');
    const first = await w.login({ role: 'movable', pkcs7: await inst.pkcs7() });
    const nonce = first.auth.metadata!.nonce;
    expect(await w.loginError({ role: 'movable', pkcs7: await inst.pkcs7(), nonce: 'lost' })).toEqual({
      status: 400,
      message: expect.stringContaining('client nonce mismatch and instance meta-data incorrect'),
    });
    w.sim.setPendingTime(inst.id, '2024-03-01T00:00:00Z');
    const moved = await w.login({ role: 'movable', pkcs7: await inst.pkcs7() });
    // The stored nonce does not change; the migrated instance is told the one that keeps working.
    expect(moved.auth.metadata?.nonce).toBe(nonce);
    expect(await entryOf(inst.id)).toMatchObject({ pending_time: '2024-03-01T00:00:00Z' });
    await w.login({ role: 'movable', pkcs7: await inst.pkcs7(), nonce });
  });

  it('without allow_instance_migration a newer pendingTime does not excuse a wrong nonce', async () => {
    const inst = await freshInstance('2024-01-02T03:04:05Z');
    await w.login({ role: 'plain', pkcs7: await inst.pkcs7() });
    w.sim.setPendingTime(inst.id, '2024-03-01T00:00:00Z');
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: 'lost' })).toEqual({ status: 400, message: expect.stringMatching(/^client nonce mismatch:/) });
  });

  it('an older pendingTime is refused even with the right nonce', async () => {
    const inst = await freshInstance('2024-05-01T00:00:00Z');
    const { auth } = await w.login({ role: 'plain', pkcs7: await inst.pkcs7() });
    w.sim.setPendingTime(inst.id, '2024-04-01T00:00:00Z');
    expect(await w.loginError({ role: 'plain', pkcs7: await inst.pkcs7(), nonce: auth.metadata!.nonce })).toEqual({
      status: 400,
      message: expect.stringContaining('instance meta-data is older than the one used for previous login'),
    });
  });

  it('two concurrent first logins of one instance: one entry, one nonce, and only its holder logs in again', async () => {
    const inst = await freshInstance();
    const doc = await inst.pkcs7();
    const [a, b] = await Promise.all([w.login({ role: 'plain', pkcs7: doc }), w.login({ role: 'plain', pkcs7: doc }).catch((e: Error) => e)]);
    const winners = [a, b].filter((x) => !(x instanceof Error)) as Array<Awaited<ReturnType<LoginWorld['login']>>>;
    const nonces = new Set(winners.map((x) => x.auth.metadata?.nonce).filter(Boolean));
    // The second transaction sees the first's entry: it either fails the nonce check or (no nonce sent) is refused.
    expect(winners.length).toBe(1);
    expect(nonces.size).toBe(1);
    await w.login({ role: 'plain', pkcs7: doc, nonce: [...nonces][0] });
  });
});
