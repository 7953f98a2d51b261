/**
 * The role-tag deny list: adding a tag as is or base64-encoded (both alphabets), the signature check on
 * add, reading and deleting in any of the three forms, listing the tags themselves, the expiration rule,
 * isDenyListed (what login calls), the deprecated roletag-blacklist name and the ACL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../../support/in-process.js';
import { statusOf } from '../../../support/wait.js';
import { isDenyListed } from '../../../../src/secrets/auth/cloud/deny-list.js';

let srv: InProcessServer;
let accessor: string;
const c = () => srv.client();
const HOUR = 3600_000;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

async function tag(mount: string, role: string, body: Record<string, unknown> = {}): Promise<string> {
  return (await c().secrets('POST', `auth/${mount}/role/${role}/tag`, { body }))!.data!.tag_value as string;
}

/** A tag of `role` that `ok` accepts (tags differ by their random nonce and HMAC). */
async function tagWhere(role: string, ok: (t: string) => boolean): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const t = await tag('cloud', role);
    if (ok(t)) return t;
  }
  throw new Error('no such tag in 200 tries');
}

/** A raw '/' makes the path value span segments; "//" no path may hold (the server refuses empty path segments). */
const oneSlash = (t: string) => t.includes('/') && !t.includes('//');

const entry = async (value: string, mount = 'cloud') => (await c().secrets('GET', `auth/${mount}/roletag-denylist/${value}`))!.data as { creation_time: string; expiration_time: string };

beforeAll(async () => {
  srv = await startInProcessServer();
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  await c().secrets('POST', 'sys/auth/short', { body: { type: 'cloud', config: { max_lease_ttl: '1h' } } });
  accessor = ((await c().secrets('GET', 'sys/auth'))!.data!['cloud/'] as { accessor: string }).accessor;
  const role = (mount: string, name: string, body: Record<string, unknown>) =>
    c().secrets('POST', `auth/${mount}/role/${name}`, { body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'SvcRole', ...body } });
  await role('cloud', 'tagged', { token_policies: 'a' });
  await role('cloud', 'other', { token_policies: 'a' });
  await role('short', 'tagged', { token_policies: 'a', token_max_ttl: '2h' });
});
afterAll(async () => srv?.close());

describe('roletag-denylist', () => {
  it('adds a raw tag (even one holding "/"), reads it back in every form, lists the tag itself, deletes it', async () => {
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/roletag-denylist'))).code).toBe(404);
    const t = await tagWhere('tagged', oneSlash);
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(false);
    expect(await c().secrets('POST', `auth/cloud/roletag-denylist/${t}`)).toBeUndefined();
    const read = await entry(t);
    expect(Object.keys(read).sort()).toEqual(['creation_time', 'expiration_time']);
    expect(await entry(b64(t))).toEqual(read);
    expect(await entry(b64url(t))).toEqual(read);
    expect((await c().secrets('LIST', 'auth/cloud/roletag-denylist'))!.data!.keys).toEqual([t]);
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(true);
    await c().secrets('DELETE', `auth/cloud/roletag-denylist/${b64url(t)}`);
    expect((await statusOf(c().secrets('GET', `auth/cloud/roletag-denylist/${t}`))).code).toBe(404);
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(false);
  });

  it('adds a base64 tag (standard or URL-safe) under the tag itself', async () => {
    // Padded and unpadded: a tag of 84 characters needs no padding, one of 91 does.
    const a = await tag('cloud', 'tagged');
    const b = await tag('cloud', 'other', { instance_id: 'i-12' });
    expect(b64url(b)).not.toBe(b64(b));
    await c().secrets('POST', `auth/cloud/roletag-denylist/${b64(a)}`);
    await c().secrets('POST', `auth/cloud/roletag-denylist/${b64url(b)}`);
    expect((await c().secrets('LIST', 'auth/cloud/roletag-denylist'))!.data!.keys).toEqual([a, b].sort());
    expect(isDenyListed(srv.server.services, accessor, a)).toBe(true);
    expect(isDenyListed(srv.server.services, accessor, b)).toBe(true);
    for (const t of [a, b]) await c().secrets('DELETE', `auth/cloud/roletag-denylist/${b64(t)}`);
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/roletag-denylist'))).code).toBe(404);
  });

  it('refuses with 400 what is not a tag of ours, and stores nothing', async () => {
    const t = await tag('cloud', 'tagged');
    const text = t.slice(0, t.lastIndexOf(':'));
    const cases: Array<[string, RegExp]> = [
      ['not-a-tag', /invalid role tag/],
      [b64('v9:x:r=tagged:d=false:m=false:y'), /invalid role tag version/],
      // base64url: a tag's own base64 HMAC may hold "//", which a path cannot carry.
      [b64url(`${text.replace(':d=false:', ':d=true:')}:${t.slice(t.lastIndexOf(':') + 1)}`), /signature verification failed/],
      [b64url(`${text}:${'A'.repeat(43)}=`), /signature verification failed/],
      [b64url(text.replace(':r=tagged:', ':r=gone:') + ':x'), /entry not found for role "gone"/],
    ];
    for (const [value, message] of cases) {
      const answer = await statusOf(c().secrets('POST', `auth/cloud/roletag-denylist/${value}`));
      expect(answer.code, value).toBe(400);
      expect(answer.message, value).toMatch(message);
    }
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/roletag-denylist'))).code).toBe(404);
  });

  it('expires after the longest of the tag max_ttl, the role token_max_ttl and the mount maximum; adding again keeps creation_time', async () => {
    const near = (iso: string, ms: number) => expect(Math.abs(Date.parse(iso) - (Date.now() + ms))).toBeLessThan(60_000);
    const plain = await tag('cloud', 'tagged');
    await c().secrets('POST', `auth/cloud/roletag-denylist/${b64url(plain)}`);
    near((await entry(b64url(plain))).expiration_time, 768 * HOUR);
    const long = await tag('cloud', 'tagged', { max_ttl: '1000h' });
    await c().secrets('POST', `auth/cloud/roletag-denylist/${b64url(long)}`);
    near((await entry(b64url(long))).expiration_time, 1000 * HOUR);
    // Mount max 1h, role 2h, tag none: the role's wins.
    const short = await tag('short', 'tagged');
    await c().secrets('POST', `auth/short/roletag-denylist/${b64url(short)}`);
    const first = await entry(b64url(short), 'short');
    near(first.expiration_time, 2 * HOUR);
    await new Promise((r) => setTimeout(r, 20));
    await c().secrets('POST', `auth/short/roletag-denylist/${b64url(short)}`);
    const again = await entry(b64url(short), 'short');
    expect(again.creation_time).toBe(first.creation_time);
    expect(Date.parse(again.expiration_time)).toBeGreaterThan(Date.parse(first.expiration_time));
    // A tag is verified under the key of its own mount's role.
    expect((await statusOf(c().secrets('POST', `auth/cloud/roletag-denylist/${b64url(short)}`))).message).toMatch(/signature verification failed/);
    for (const t of [plain, long]) await c().secrets('DELETE', `auth/cloud/roletag-denylist/${b64url(t)}`);
  });

  it('reading or deleting a tag that is not listed: 404 and 204', async () => {
    const t = await tag('cloud', 'tagged');
    expect((await statusOf(c().secrets('GET', `auth/cloud/roletag-denylist/${b64url(t)}`))).code).toBe(404);
    expect(await c().secrets('DELETE', `auth/cloud/roletag-denylist/${b64url(t)}`)).toBeUndefined();
  });

  it('serves the deprecated roletag-blacklist name as the current one, without a warning (as Vault)', async () => {
    const t = await tag('cloud', 'tagged');
    expect(await c().secrets('POST', `auth/cloud/roletag-blacklist/${b64url(t)}`)).toBeUndefined();
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(true);
    const read = await c().secrets('GET', `auth/cloud/roletag-blacklist/${b64url(t)}`);
    expect(read!.data).toBeDefined();
    expect(read!.warnings ?? []).toEqual([]);
    const listed = await c().secrets('LIST', 'auth/cloud/roletag-blacklist');
    expect(listed!.data!.keys).toEqual([t]);
    expect(listed!.warnings ?? []).toEqual([]);
    expect(await c().secrets('DELETE', `auth/cloud/roletag-blacklist/${b64url(t)}`)).toBeUndefined();
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(false);
  });

  it('needs a policy on the path: 403 without one', async () => {
    await c().secrets('PUT', 'sys/policies/acl/deny-reader', { body: { policy: 'path "auth/cloud/roletag-denylist/*" { capabilities = ["read"] }' } });
    const token = (await c().secrets('POST', 'auth/token/create', { body: { policies: 'deny-reader' } }))!.auth!.client_token as string;
    const t = await tag('cloud', 'tagged');
    expect((await statusOf(srv.client(token).secrets('POST', `auth/cloud/roletag-denylist/${b64url(t)}`))).code).toBe(403);
    expect((await statusOf(srv.client(token).secrets('LIST', 'auth/cloud/roletag-denylist'))).code).toBe(403);
    expect(isDenyListed(srv.server.services, accessor, t)).toBe(false);
    expect((await statusOf(srv.client(token).secrets('GET', `auth/cloud/roletag-denylist/${b64url(t)}`))).code).toBe(404);
  });
});
