/**
 * Role tags: the value's format, its signature under the role's key (and what breaks it), the creation
 * rules of auth/cloud/role/:role/tag, and the role's key staying sealed. Verification is called
 * in-process (verifyRoleTag, which login calls); everything else goes through the HTTP API.
 */
import crypto from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { statusOf } from '../../../support/wait.js';
import { parseRoleTag, verifyRoleTag } from '../../../../src/secrets/auth/cloud/role-tag.js';
import { readRole, roleHmacKey } from '../../../../src/secrets/auth/cloud/role-entry.js';
import { CLOUD_TABLES } from '../../../../src/secrets/auth/cloud/mount-storage.js';

let srv: TestServer;
let accessor: string;
const logs: string[] = [];
const c = () => srv.client();
const services = () => srv.server.services;

const FORMAT = /^v1:([A-Za-z0-9+/]{11}=):r=([^:]+):d=(true|false):m=(true|false)(?::p=([^:]+))?(?::i=([^:]+))?(?::t=(\d+))?:([A-Za-z0-9+/]{43}=)$/;

async function tag(role: string, body: Record<string, unknown> = {}) {
  const res = await c().secrets('POST', `auth/cloud/role/${role}/tag`, { body });
  return { key: res!.data!.tag_key as string, value: res!.data!.tag_value as string, warnings: res!.warnings ?? [] };
}

function key(role: string): string {
  return roleHmacKey(services(), accessor, role, readRole(services(), accessor, role)!);
}

const hmac = (text: string, k: string) => crypto.createHmac('sha256', k).update(text).digest('base64');

/** The tag with its signed text replaced and its old HMAC kept. */
const withText = (value: string, text: string) => `${text}:${value.slice(value.lastIndexOf(':') + 1)}`;

beforeAll(async () => {
  srv = await startTestServer({ client: false, logWrite: (l) => logs.push(l), logLevel: 'debug' });
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  accessor = ((await c().secrets('GET', 'sys/auth'))!.data!['cloud/'] as { accessor: string }).accessor;
  const role = (name: string, body: Record<string, unknown>) => c().secrets('POST', `auth/cloud/role/${name}`, { body: { auth_type: 'ec2', bound_ami_id: 'ami-1', ...body } });
  await role('tagged', { role_tag: 'SvcRole', token_policies: 'a,b', token_max_ttl: '2h' });
  await role('plain', { token_policies: 'a' });
  await role('nodefault', { role_tag: 'SvcRole', token_policies: 'a', token_no_default_policy: true });
  await role('migrating', { role_tag: 'SvcRole', token_policies: 'a', allow_instance_migration: true });
  await role('rooted', { role_tag: 'SvcRole', token_policies: 'root' });
  await role('many', { role_tag: 'SvcRole', token_policies: Array.from({ length: 12 }, (_, i) => `a-rather-long-policy-name-${i}`) });
});
afterAll(async () => srv?.close());

describe('role tag format', () => {
  it('puts every item in the fixed order, signed with the role key over everything before the last ":"', async () => {
    const t = await tag('TAGGED', { policies: ' B, a,a', max_ttl: '90m', instance_id: 'I-ABC', disallow_reauthentication: true });
    expect(t.key).toBe('SvcRole');
    const m = FORMAT.exec(t.value);
    expect(m, t.value).not.toBeNull();
    const [, nonce, role, d, mig, p, i, ttl, mac] = m!;
    expect(Buffer.from(nonce, 'base64')).toHaveLength(8);
    expect([role, d, mig, p, i, ttl]).toEqual(['tagged', 'true', 'false', 'a,b', 'i-abc', '5400']);
    expect(mac).toBe(hmac(t.value.slice(0, t.value.lastIndexOf(':')), key('tagged')));
    expect(t.value.length).toBeLessThanOrEqual(255);
  });

  it('leaves out p=, i= and t= when not given; each tag has its own nonce', async () => {
    const a = await tag('tagged');
    const b = await tag('tagged');
    expect(a.value).toMatch(/^v1:[^:]{12}:r=tagged:d=false:m=false:[^:]{44}$/);
    expect(a.value.split(':')[1]).not.toBe(b.value.split(':')[1]);
  });

  it('policies given but empty mean the default policy alone, carried as p=default', async () => {
    expect(parseRoleTag((await tag('tagged', { policies: [] })).value).tag.policies).toEqual(['default']);
    expect(parseRoleTag((await tag('tagged', { policies: '' })).value).tag.policies).toEqual(['default']);
  });

  it('verifies, and answers what login needs', async () => {
    const t = await tag('tagged', { policies: 'a', max_ttl: 600, instance_id: 'i-1', allow_instance_migration: true });
    const v = verifyRoleTag(services(), accessor, t.value);
    expect(v).toMatchObject({ role: 'tagged', policies: ['a'], maxTtl: 600, instanceId: 'i-1', allowInstanceMigration: true, disallowReauthentication: false });
    expect(v.nonce).toBe(t.value.split(':')[1]);
    expect(v.roleEntry.role_tag).toBe('SvcRole');
  });

  it('refuses a tampered, reordered, re-spelled or foreign tag', async () => {
    const t = (await tag('tagged', { policies: 'a', instance_id: 'i-1' })).value;
    const text = t.slice(0, t.lastIndexOf(':'));
    const mac = t.slice(t.lastIndexOf(':') + 1);
    const [v, nonce, r, d, m, p, i] = text.split(':');
    const lastChar = mac.at(-2)!;
    // The last base64 digit before '=' carries 2 unused bits: another digit can decode to the same bytes.
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const sameBytes = [...digits].find((ch) => ch !== lastChar && Buffer.from(mac.slice(0, -2) + ch + '=', 'base64').equals(Buffer.from(mac, 'base64')));
    expect(sameBytes).toBeDefined();
    const cases: Record<string, string> = {
      'flag flipped': withText(t, text.replace(':d=false:', ':d=true:')),
      'policy added': withText(t, text.replace(':p=a:', ':p=a,b:')),
      'instance removed': withText(t, [v, nonce, r, d, m, p].join(':')),
      'items reordered': withText(t, [v, nonce, r, d, m, i, p].join(':')),
      'hmac changed': `${text}:${mac.slice(0, 5)}${mac[5] === 'A' ? 'B' : 'A'}${mac.slice(6)}`,
      'hmac re-spelled': `${text}:${mac.slice(0, -2)}${sameBytes}=`,
      'signed by another key': `${text}:${hmac(text, crypto.randomUUID())}`,
      'moved to another role': withText(t, text.replace(':r=tagged:', ':r=migrating:')),
    };
    for (const [what, value] of Object.entries(cases)) {
      expect(() => verifyRoleTag(services(), accessor, value), what).toThrow(/role tag signature verification failed/);
    }
  });

  it('says what is wrong with a malformed tag', () => {
    const errors: Array<[string, RegExp]> = [
      ['v1:abc:hmac', /invalid role tag/],
      ['v2:n:r=tagged:d=false:m=false:x', /invalid role tag version "v2"/],
      ['v1:n:r=tagged:d=false:x=1:m=false:h', /unrecognized item "x=1"/],
      ['v1:n:d=false:m=false:h', /missing role name/],
      ['v1:n:r=tagged:d=maybe:m=false:h', /d= takes true or false/],
      ['v1:n:r=tagged:d=false:m=false:t=1h:h', /t= takes whole seconds/],
      ['v1:n:r=nosuchrole:d=false:m=false:h', /entry not found for role "nosuchrole"/],
    ];
    for (const [value, message] of errors) expect(() => verifyRoleTag(services(), accessor, value), value).toThrow(message);
  });
});

describe('role tag creation rules', () => {
  const fails = async (role: string, body: Record<string, unknown>) => statusOf(c().secrets('POST', `auth/cloud/role/${role}/tag`, { body }));

  it('refuses an unknown role, a role without role_tag, and both flags', async () => {
    expect(await fails('nosuch', {})).toEqual({ code: 400, message: 'entry not found for role nosuch' });
    expect(await fails('plain', {})).toMatchObject({ code: 400, message: expect.stringMatching(/tag creation is not enabled for this role/) });
    expect(await fails('migrating', { allow_instance_migration: true, disallow_reauthentication: true })).toEqual({
      code: 400,
      message: 'cannot set both disallow_reauthentication and allow_instance_migration',
    });
  });

  it('refuses policies the role does not grant (a 400 where Vault only warns)', async () => {
    const extra = await fails('tagged', { policies: 'a,c,d' });
    expect(extra.code).toBe(400);
    expect(extra.message).toMatch(/must be a subset of the policies of role "tagged"; the role does not grant: c, d/);
    expect((await fails('tagged', { policies: 'root' })).code).toBe(400);
    // The role's tokens get `default` unless it leaves it out, so a tag may name it only then.
    expect((await tag('tagged', { policies: 'default,b' })).value).toContain(':p=b,default:');
    expect((await fails('nodefault', { policies: [] })).message).toMatch(/does not grant: default/);
    // `root` grants every policy, so any narrowing of it is a subset.
    expect((await tag('rooted', { policies: 'x' })).value).toContain(':p=x:');
  });

  it('accepts a tag that restricts nothing: "strict subset" is enforced as never more than the role, equality allowed', async () => {
    const t = await tag('tagged', { policies: 'a,b,default' });
    expect(t.warnings).toEqual([]);
    expect(verifyRoleTag(services(), accessor, t.value).policies).toEqual(['a', 'b', 'default']);
    expect((await tag('tagged')).warnings).toEqual([]);
  });

  it('refuses a negative max_ttl and warns about one above the role or the mount maximum', async () => {
    expect(await fails('tagged', { max_ttl: -5 })).toEqual({ code: 400, message: 'max_ttl cannot be negative' });
    expect((await tag('tagged', { max_ttl: '3h' })).warnings).toEqual([
      "max_ttl of 10800 seconds is greater than the role's token_max_ttl of 7200 seconds; logins with the tag are capped at the role's",
    ]);
    const huge = await tag('tagged', { max_ttl: '800h' });
    expect(huge.warnings).toHaveLength(2);
    expect(huge.warnings[0]).toMatch(/greater than the mount's maximum of 2764800 seconds/);
    expect(huge.value).toContain(':t=2880000:');
  });

  it('warns when the tag asks for migration that the role forbids, not when the role allows it', async () => {
    expect((await tag('tagged', { allow_instance_migration: true })).warnings.join(' ')).toMatch(/does not allow instance migration/);
    expect((await tag('migrating', { allow_instance_migration: true })).warnings).toEqual([]);
  });

  it('refuses a tag longer than an instance tag value holds', async () => {
    const long = await fails('many', { policies: Array.from({ length: 12 }, (_, i) => `a-rather-long-policy-name-${i}`) });
    expect(long.code).toBe(400);
    expect(long.message).toMatch(/more than the 255 an instance tag value holds/);
    expect((await tag('many', { policies: 'a-rather-long-policy-name-3' })).value.length).toBeLessThanOrEqual(255);
  });

  it('needs update on the tag path: another capability on the role is not enough', async () => {
    await c().secrets('PUT', 'sys/policies/acl/role-reader', { body: { policy: 'path "auth/cloud/role/*" { capabilities = ["read"] }' } });
    await c().secrets('PUT', 'sys/policies/acl/tagger', { body: { policy: 'path "auth/cloud/role/tagged/tag" { capabilities = ["update"] }' } });
    const token = async (policy: string) => (await c().secrets('POST', 'auth/token/create', { body: { policies: policy } }))!.auth!.client_token as string;
    expect((await statusOf(srv.client(await token('role-reader')).secrets('POST', 'auth/cloud/role/tagged/tag', { body: {} }))).code).toBe(403);
    expect((await srv.client(await token('tagger')).secrets('POST', 'auth/cloud/role/tagged/tag', { body: {} }))!.data!.tag_value).toMatch(/^v1:/);
  });
});

describe('the role key', () => {
  async function filesUnder(dir: string): Promise<string[]> {
    const out: string[] = [];
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) out.push(...(await filesUnder(full)));
      else if (e.isFile()) out.push(full);
    }
    return out;
  }

  it('is in neither the store nor any file of the data dir in clear, nor in the role read, a refusal or a log line', async () => {
    const secret = key('tagged');
    const forged = (await tag('tagged')).value.replace(/:[^:]+$/, `:${Buffer.alloc(32).toString('base64')}`);
    const refusals = [
      await statusOf(c().secrets('POST', `auth/cloud/roletag-denylist/${Buffer.from(forged).toString('base64url')}`)),
      await statusOf(c().secrets('POST', 'auth/cloud/role/plain/tag', { body: {} })),
    ];
    for (const r of refusals) {
      expect(r.code).toBe(400);
      expect(r.message).not.toContain(secret);
    }
    expect(logs.join('')).not.toContain(secret);
    expect(secret.length).toBeGreaterThan(16);
    for (const table of CLOUD_TABLES) expect(JSON.stringify(services().store.list(table)), table).not.toContain(secret);
    for (const file of await filesUnder(srv.dataDir)) expect((await readFile(file)).includes(Buffer.from(secret)), file).toBe(false);
    const read = JSON.stringify((await c().secrets('GET', 'auth/cloud/role/tagged'))!.data);
    expect(read).not.toContain(secret);
    expect(read).not.toMatch(/hmac/);
  });
});
