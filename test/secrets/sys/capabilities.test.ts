import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';

let ts: InProcessServer;
let reader: string;
let defaultOnly: string;

const READER_POLICY = `path "secret/*" {
  capabilities = ["read", "list"]
}
path "secret/locked" {
  capabilities = ["deny"]
}
`;

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function tokenWith(policies: string[]): Promise<string> {
  const { secret } = await ts.server.services.tokens.create({
    policies,
    path: 'auth/token/create',
    mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

beforeAll(async () => {
  ts = await startInProcessServer();
  await ts.client().secrets('PUT', 'sys/policies/acl/reader', { body: { policy: READER_POLICY } });
  reader = await tokenWith(['reader']);
  defaultOnly = await tokenWith([]);
});

afterAll(async () => {
  await ts?.close();
});

async function selfCaps(token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await ts.client(token).secrets('POST', 'sys/capabilities-self', { body }))!.data!;
}

describe('sys/capabilities-self', () => {
  it('answers one path under its own key and under "capabilities", sorted', async () => {
    expect(await selfCaps(reader, { path: 'secret/app' })).toEqual({ capabilities: ['list', 'read'], 'secret/app': ['list', 'read'] });
  });

  it('answers several paths without the "capabilities" key, and "deny" where nothing is granted', async () => {
    expect(await selfCaps(reader, { paths: ['secret/app', 'secret/locked', 'other/x'] })).toEqual({
      'secret/app': ['list', 'read'],
      'secret/locked': ['deny'],
      'other/x': ['deny'],
    });
  });

  it('takes paths as a comma-separated string and merges path with paths', async () => {
    expect(Object.keys(await selfCaps(reader, { paths: 'secret/a,secret/b', path: 'secret/c' })).sort()).toEqual(['secret/a', 'secret/b', 'secret/c']);
  });

  it('answers ["root"] for a root token', async () => {
    expect(await selfCaps(ts.rootToken, { path: 'anything/at/all' })).toEqual({ capabilities: ['root'], 'anything/at/all': ['root'] });
  });

  it('is open to a token that has only the default policy', async () => {
    expect(await selfCaps(defaultOnly, { path: 'auth/token/lookup-self' })).toEqual({
      capabilities: ['read'],
      'auth/token/lookup-self': ['read'],
    });
  });

  it('needs a path', async () => {
    const err = await apiError(ts.client(reader).secrets('POST', 'sys/capabilities-self', { body: {} }));
    expect([err.statusCode, err.errors[0]]).toEqual([400, expect.stringContaining('missing path')]);
  });
});

describe('sys/capabilities', () => {
  it("answers another token's capabilities", async () => {
    const res = await ts.client().secrets('POST', 'sys/capabilities', { body: { token: reader, paths: ['secret/app', 'secret/locked'] } });
    expect(res!.data).toEqual({ 'secret/app': ['list', 'read'], 'secret/locked': ['deny'] });
  });

  it('is refused to a token without update on sys/capabilities', async () => {
    const err = await apiError(ts.client(defaultOnly).secrets('POST', 'sys/capabilities', { body: { token: reader, path: 'secret/app' } }));
    expect([err.statusCode, err.errors]).toEqual([403, ['permission denied']]);
  });

  it('answers 400 for an unknown or missing token', async () => {
    const unknown = await apiError(ts.client().secrets('POST', 'sys/capabilities', { body: { token: 'not-a-token', path: 'secret/app' } }));
    expect([unknown.statusCode, unknown.errors]).toEqual([400, ['invalid token']]);
    const missing = await apiError(ts.client().secrets('POST', 'sys/capabilities', { body: { path: 'secret/app' } }));
    expect([missing.statusCode, missing.errors[0]]).toEqual([400, expect.stringContaining('"token"')]);
  });
});
