/**
 * auth/token/tidy: answers 202 at once and, in the background, removes what a lost write can leave in the
 * token indexes, revokes expired tokens, and leaves everything live alone. The stale state is made through
 * the store directly, the way an interrupted older server could have left it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESSORS_TABLE, PARENTS_TABLE, TOKENS_TABLE } from '../../../src/secrets/token/token-store.js';
import type { TokenEntry } from '../../../src/secrets/token/token-entry.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { until } from '../../support/wait.js';

let srv: InProcessServer;
const logs: string[] = [];

interface Made {
  id: string;
  secret: string;
  accessor: string;
}

async function make(body: Record<string, unknown>, token?: string): Promise<Made> {
  const res = await srv.request('POST', '/v1/auth/token/create', { body, token });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  const { client_token: secret, accessor } = (res.body as { auth: { client_token: string; accessor: string } }).auth;
  return { id: srv.server.services.seal.hashToken(secret), secret, accessor };
}

const entry = (id: string) => srv.server.services.store.get<TokenEntry>(TOKENS_TABLE, id);
const row = (table: string, key: string) => srv.server.services.store.get(table, key);

async function tidy(token?: string) {
  const before = logs.filter((l) => l.includes('finished tidy operation on tokens')).length;
  const res = await srv.request('POST', '/v1/auth/token/tidy', { token });
  if (res.status === 202) await until(async () => logs.filter((l) => l.includes('finished tidy operation on tokens')).length, (n) => n > before, 'the tidy to finish');
  return res;
}

beforeAll(async () => {
  srv = await startInProcessServer({ logWrite: (line) => void logs.push(line) });
  await srv.request('PUT', '/v1/sys/policies/acl/maker', { body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' } });
});

afterAll(async () => {
  await srv?.close();
});

describe('auth/token/tidy', () => {
  it('needs update on auth/token/tidy', async () => {
    const other = await make({ policies: 'maker' });
    expect((await srv.request('POST', '/v1/auth/token/tidy', { token: other.secret })).status).toBe(403);
  });

  it('answers 202 with Vault\'s warning, then tidies the stale entries and leaves the live ones', async () => {
    const { store } = srv.server.services;
    const parent = await make({ policies: 'maker' });
    const child = await make({ policies: 'default' }, parent.secret);
    const unlinked = await make({ policies: 'default' }, parent.secret);
    const doomedParent = await make({ policies: 'maker' });
    const stranded = await make({ policies: 'default' }, doomedParent.secret);
    const expired = await make({ policies: 'maker', ttl: '1h' });
    const expiredChild = await make({ policies: 'default' }, expired.secret);

    await store.write((tx) => {
      // Index rows of tokens that are gone, or that never pointed right.
      tx.put(ACCESSORS_TABLE, 'ghost-accessor', 'no-such-token-id');
      tx.put(ACCESSORS_TABLE, 'empty-accessor', '');
      tx.put(ACCESSORS_TABLE, 'wrong-accessor', child.id);
      tx.put(PARENTS_TABLE, `${parent.id}/revoked-child-id`, true);
      tx.put(PARENTS_TABLE, `no-such-parent/${child.id}`, true);
      // A parent deleted without its children, and a child whose parent row was lost.
      // (its own row under the root token is left too)
      tx.delete(TOKENS_TABLE, doomedParent.id);
      tx.delete(ACCESSORS_TABLE, doomedParent.accessor);
      tx.delete(PARENTS_TABLE, `${parent.id}/${unlinked.id}`);
      // Past its expiry, but not swept yet.
      tx.put(TOKENS_TABLE, expired.id, { ...entry(expired.id)!, expireTime: Date.now() - 1000 });
    });

    const res = await tidy();
    expect(res.status).toBe(202);
    expect((res.body as { warnings: string[] }).warnings).toEqual([
      "Tidy operation successfully started. Any information from the operation will be printed to the server logs.",
    ]);

    expect(row(ACCESSORS_TABLE, 'ghost-accessor')).toBeUndefined();
    expect(row(ACCESSORS_TABLE, 'empty-accessor')).toBeUndefined();
    expect(row(ACCESSORS_TABLE, 'wrong-accessor')).toBeUndefined();
    expect(row(PARENTS_TABLE, `${parent.id}/revoked-child-id`)).toBeUndefined();
    expect(row(PARENTS_TABLE, `no-such-parent/${child.id}`)).toBeUndefined();

    // The child of the vanished parent is an orphan now, its parent row gone.
    expect(entry(stranded.id)).toMatchObject({ parentId: '', orphan: true });
    expect(row(PARENTS_TABLE, `${doomedParent.id}/${stranded.id}`)).toBeUndefined();
    expect(row(PARENTS_TABLE, `${srv.server.services.seal.hashToken(srv.rootToken)}/${doomedParent.id}`)).toBeUndefined();
    expect(row(ACCESSORS_TABLE, stranded.accessor)).toBe(stranded.id);

    // The lost row is back, so revoking the parent still reaches the child.
    expect(row(PARENTS_TABLE, `${parent.id}/${unlinked.id}`)).toBe(true);

    // The expired token went with its child and their index rows.
    for (const t of [expired, expiredChild]) {
      expect(entry(t.id)).toBeUndefined();
      expect(row(ACCESSORS_TABLE, t.accessor)).toBeUndefined();
    }
    expect(row(PARENTS_TABLE, `${expired.id}/${expiredChild.id}`)).toBeUndefined();

    // Live tokens and their rows are untouched.
    for (const t of [parent, child, unlinked]) {
      expect(entry(t.id)).toBeDefined();
      expect(row(ACCESSORS_TABLE, t.accessor)).toBe(t.id);
    }
    expect(entry(child.id)).toMatchObject({ parentId: parent.id, orphan: false });
    expect(row(PARENTS_TABLE, `${parent.id}/${child.id}`)).toBe(true);
    expect(entry(srv.server.services.seal.hashToken(srv.rootToken))).toBeDefined();
    expect(logs.some((l) => l.includes('2 expired token(s) revoked, 3 stale accessor row(s) and 4 stale parent row(s) deleted, 1 token(s) of a missing parent made orphans, 1 missing parent row(s) restored'))).toBe(true);

    await srv.request('POST', '/v1/auth/token/revoke-self', { token: parent.secret });
    expect(entry(unlinked.id)).toBeUndefined();
  });

  it('a second tidy of a clean store changes nothing and writes nothing', async () => {
    const { store } = srv.server.services;
    const snapshot = () => JSON.stringify([TOKENS_TABLE, ACCESSORS_TABLE, PARENTS_TABLE].map((t) => store.list(t)));
    const before = snapshot();
    const index = store.index();
    expect((await tidy()).status).toBe(202);
    expect(snapshot()).toBe(before);
    expect(store.index()).toBe(index);
  });
});
