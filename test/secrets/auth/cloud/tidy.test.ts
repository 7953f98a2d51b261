/**
 * Tidy of both lists: what goes (only entries past expiration + safety_buffer), the 202 answer and its
 * warning, one tidy per list at a time, the periodic tidy and its config/tidy/* settings, the deprecated
 * tidy paths and the ACL. Access-list entries are written in-process with access-list.ts's helpers, as
 * login writes them, with expiration times in the past; deny-list entries are added in-process with an
 * earlier "now" so that they are already old.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { until } from '../../../support/wait.js';
import { listAccessListIds, putAccessListEntry } from '../../../../src/secrets/auth/cloud/access-list.js';
import { denyListTag, listDenyListedTags } from '../../../../src/secrets/auth/cloud/deny-list.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const STARTED = 'Tidy operation successfully started. Any information from the operation will be printed to the server logs.';
const IN_PROGRESS = 'Tidy operation already in progress.';

/** The tidies a server runs (its cloud auth method's). */
const tidiesOf = (srv: TestServer) => srv.server.authMethods.cloud.state.tidies;

interface Env {
  srv: TestServer;
  logs: string[];
  accessor(mount: string): Promise<string>;
  /** an access-list entry that expired `agoMs` ago (negative: expires in the future) */
  access(mount: string, id: string, agoMs: number): Promise<void>;
  /** a deny-listed tag of role `tagged` whose entry expired `agoMs` ago; the mount's max TTL is 1h */
  deny(mount: string, agoMs: number): Promise<string>;
  mount(name: string): Promise<void>;
}

async function env(opts: Parameters<typeof startTestServer>[0] = {}): Promise<Env> {
  const logs: string[] = [];
  const srv = await startTestServer({ client: false, logWrite: (l) => logs.push(l), ...opts });
  const accessor = async (mount: string) => ((await srv.client().secrets('GET', 'sys/auth'))!.data![`${mount}/`] as { accessor: string }).accessor;
  return {
    srv,
    logs,
    accessor,
    async mount(name) {
      await srv.client().secrets('POST', `sys/auth/${name}`, { body: { type: 'cloud', config: { max_lease_ttl: '1h' } } });
      await srv.client().secrets('POST', `auth/${name}/role/tagged`, { body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'SvcRole' } });
    },
    async access(mount, id, agoMs) {
      const expires = new Date(Date.now() - agoMs).toISOString();
      const t = new Date().toISOString();
      await putAccessListEntry(srv.server.services, await accessor(mount), id, {
        role: 'web',
        client_nonce: 'n',
        creation_time: t,
        disallow_reauthentication: false,
        pending_time: t,
        expiration_time: expires,
        last_updated_time: t,
      });
    },
    async deny(mount, agoMs) {
      const tag = (await srv.client().secrets('POST', `auth/${mount}/role/tagged/tag`, { body: {} }))!.data!.tag_value as string;
      // expiration = "now" + 1h (the mount maximum, the longest here)
      await denyListTag(srv.server.services, await accessor(mount), tag, new Date(Date.now() - agoMs - HOUR));
      return tag;
    },
  };
}

let e: Env;
beforeAll(async () => {
  e = await env();
  await e.mount('cloud');
});
afterAll(async () => e?.srv.close());

const post = (path: string, body: Record<string, unknown> = {}, token?: string) => e.srv.client(token).request('POST', `/v1/auth/cloud/${path}`, { body });
const json = (a: { body: Buffer }) => JSON.parse(a.body.toString()) as { warnings: string[] | null; data: unknown };
const ids = async () => listAccessListIds(e.srv.server.services, await e.accessor('cloud'));
const tags = async () => listDenyListedTags(e.srv.server.services, await e.accessor('cloud'));

describe('tidy/identity-accesslist', () => {
  it('answers 202 with the warning and removes only entries past expiration + 72h by default', async () => {
    await e.access('cloud', 'i-old', 100 * HOUR);
    await e.access('cloud', 'i-recent', 71 * HOUR);
    await e.access('cloud', 'i-live', -HOUR);
    const answer = await post('tidy/identity-accesslist');
    expect(answer.status).toBe(202);
    expect(json(answer).warnings).toEqual([STARTED]);
    await until(ids, (k) => !k.includes('i-old'), 'i-old tidied');
    await tidiesOf(e.srv).settled();
    expect(await ids()).toEqual(['i-live', 'i-recent']);
    expect(e.logs.join('')).toMatch(/tidy of the identity access list of mount auth_cloud_\w+ removed 1 expired entry \(safety buffer 259200s\)/);
  });

  it('takes safety_buffer as a duration, and refuses a negative one', async () => {
    const answer = await post('tidy/identity-accesslist', { safety_buffer: '70h' });
    expect(answer.status).toBe(202);
    await until(ids, (k) => !k.includes('i-recent'), 'i-recent tidied');
    await tidiesOf(e.srv).settled();
    expect(await ids()).toEqual(['i-live']);
    expect((await post('tidy/identity-accesslist', { safety_buffer: -60 })).status).toBe(400);
    expect((await post('tidy/identity-accesslist', { safety_buffer: 'soon' })).status).toBe(400);
  });
});

describe('tidy/roletag-denylist', () => {
  it('removes only deny-list entries past expiration + safety_buffer', async () => {
    const old = await e.deny('cloud', 4 * DAY);
    const recent = await e.deny('cloud', 2 * DAY);
    const live = await e.deny('cloud', -HOUR);
    const answer = await post('tidy/roletag-denylist');
    expect(answer.status).toBe(202);
    expect(json(answer).warnings).toEqual([STARTED]);
    await until(tags, (t) => !t.includes(old), 'old tag tidied');
    await tidiesOf(e.srv).settled();
    expect(await tags()).toEqual([recent, live].sort());
    await post('tidy/roletag-denylist', { safety_buffer: '1d' });
    await until(tags, (t) => !t.includes(recent), 'recent tag tidied');
    await tidiesOf(e.srv).settled();
    expect(await tags()).toEqual([live]);
  });
});

describe('one tidy per list at a time', () => {
  it('start refuses a second tidy of the same list of the same mount, not of the other list', async () => {
    const services = e.srv.server.services;
    const tidies = tidiesOf(e.srv);
    const accessor = await e.accessor('cloud');
    expect(tidies.start(services, accessor, 'identity-accesslist', 0)).toBe(true);
    expect(tidies.start(services, accessor, 'identity-accesslist', 0)).toBe(false);
    expect(tidies.start(services, accessor, 'roletag-denylist', 1e9)).toBe(true);
    await tidies.settled();
    expect(tidies.start(services, accessor, 'identity-accesslist', 1e9)).toBe(true);
    await tidies.settled();
  });

  it('over HTTP, a tidy asked for while one runs gets 200 "already in progress"', async () => {
    // Enough entries that the tidy spans many write transactions.
    const old = Array.from({ length: 3000 }, (_, i) => `i-bulk-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < old.length; i += 500) await Promise.all(old.slice(i, i + 500).map((id) => e.access('cloud', id, 100 * HOUR)));
    expect((await ids()).length).toBeGreaterThanOrEqual(3000);
    const answers = await Promise.all([1, 2, 3].map(() => post('tidy/identity-accesslist')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 202]);
    for (const a of answers) expect(json(a).warnings).toEqual([a.status === 202 ? STARTED : IN_PROGRESS]);
    await tidiesOf(e.srv).settled();
    expect((await ids()).filter((id) => id.startsWith('i-bulk-'))).toEqual([]);
  });
});

describe('deprecated tidy paths', () => {
  for (const [old, current] of [
    ['tidy/identity-whitelist', 'tidy/identity-accesslist'],
    ['tidy/roletag-blacklist', 'tidy/roletag-denylist'],
  ]) {
    it(`${old} starts the tidy as ${current} does, without a warning of its own (Vault)`, async () => {
      const answer = await post(old);
      expect(answer.status).toBe(202);
      expect(json(answer).warnings).toEqual([STARTED]);
      await tidiesOf(e.srv).settled();
    });
  }
});

describe('tidy ACL', () => {
  it('needs update on the tidy path: 403 without it', async () => {
    await e.srv.client().secrets('PUT', 'sys/policies/acl/tidy-one', { body: { policy: 'path "auth/cloud/tidy/roletag-denylist" { capabilities = ["update"] }' } });
    const token = (await e.srv.client().secrets('POST', 'auth/token/create', { body: { policies: 'tidy-one' } }))!.auth!.client_token as string;
    expect((await post('tidy/identity-accesslist', {}, token)).status).toBe(403);
    expect((await post('tidy/roletag-denylist', {}, token)).status).toBe(202);
    await tidiesOf(e.srv).settled();
  });
});

describe('periodic tidy', () => {
  let p: Env;
  afterAll(async () => p?.srv.close());

  it('tidies every cloud mount on the timer, honouring each mount\'s safety_buffer and disable_periodic_tidy', async () => {
    p = await env({ cloudTidyIntervalMs: 100 });
    await p.mount('tuned');
    await p.mount('plain');
    // tuned: access list not tidied periodically; deny list with a 1h buffer instead of 72h.
    await p.srv.client().secrets('POST', 'auth/tuned/config/tidy/identity-accesslist', { body: { disable_periodic_tidy: true } });
    await p.srv.client().secrets('POST', 'auth/tuned/config/tidy/roletag-denylist', { body: { safety_buffer: '1h' } });
    await p.access('tuned', 'i-kept', 100 * HOUR);
    const gone = await p.deny('tuned', 2 * HOUR);
    const within = await p.deny('tuned', 30 * 60_000);
    // plain: the defaults (72h).
    await p.access('plain', 'i-gone', 100 * HOUR);
    await p.access('plain', 'i-within', 71 * HOUR);
    const plainDeny = await p.deny('plain', 2 * HOUR);

    const services = p.srv.server.services;
    const tuned = await p.accessor('tuned');
    const plain = await p.accessor('plain');
    await until(async () => listDenyListedTags(services, tuned), (t) => !t.includes(gone), 'periodic deny-list tidy of tuned');
    await until(async () => listAccessListIds(services, plain), (k) => !k.includes('i-gone'), 'periodic access-list tidy of plain');
    // Several more periods: what must stay stays.
    await new Promise((r) => setTimeout(r, 500));
    await tidiesOf(p.srv).settled();
    expect(listAccessListIds(services, tuned)).toEqual(['i-kept']);
    expect(listDenyListedTags(services, tuned)).toEqual([within]);
    expect(listAccessListIds(services, plain)).toEqual(['i-within']);
    expect(listDenyListedTags(services, plain)).toEqual([plainDeny]);

    // Turning the access-list tidy back on (config deleted: the defaults) lets the next period take i-kept.
    await p.srv.client().secrets('DELETE', 'auth/tuned/config/tidy/identity-accesslist');
    await until(async () => listAccessListIds(services, tuned), (k) => k.length === 0, 'periodic access-list tidy of tuned');
  });

  it('stops with the server: no tidy runs after close', async () => {
    const services = p.srv.server.services;
    await p.srv.close();
    const lines = p.logs.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(p.logs.slice(lines).join('')).not.toMatch(/tidy/);
    expect(services.stopping).toBe(true);
  });
});

describe('the default interval', () => {
  it('is an hour: a server started without the option tidies nothing soon', async () => {
    await e.access('cloud', 'i-untouched', 100 * HOUR);
    await new Promise((r) => setTimeout(r, 300));
    expect(await ids()).toContain('i-untouched');
    expect(e.srv.server.services.config.cloudTidyIntervalMs).toBe(3_600_000);
  });
});
