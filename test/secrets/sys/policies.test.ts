import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';
import { DEFAULT_POLICY_TEXT } from '../../../src/secrets/policy/builtin.js';
import { PolicyStore } from '../../../src/secrets/policy/policy-store.js';
import { decodePolicyText } from '../../../src/secrets/sys/path-policies.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
});

afterAll(async () => {
  await ts?.close();
});

const READ_POLICIES = `path "sys/policies/acl/*" {
  capabilities = ["read"]
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

async function tokenWith(policies: string[], noDefaultPolicy = false): Promise<string> {
  const { secret } = await ts.server.services.tokens.create({
    policies,
    noDefaultPolicy,
    path: 'auth/token/create',
    mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

async function listKeys(method: 'LIST' | 'GET', path = 'sys/policies/acl'): Promise<string[]> {
  const res = await ts.client().secrets(method, path, method === 'GET' ? { query: { list: 'true' } } : {});
  return res!.data!.keys as string[];
}

describe('sys/policies/acl', () => {
  it('lists the built-in policies on a new server, sorted', async () => {
    const keys = await listKeys('LIST');
    expect(keys).toContain('default');
    expect(keys).toContain('root');
    expect(keys).toEqual([...keys].sort());
  });

  it('answers GET ?list=true as LIST, and a plain GET with 405', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/listed', { body: { policy: READ_POLICIES } });
    expect(await listKeys('GET')).toEqual(await listKeys('LIST'));
    expect(await listKeys('GET')).toContain('listed');
    expect((await apiError(ts.client().secrets('GET', 'sys/policies/acl'))).statusCode).toBe(405);
  });

  it('serves the default policy text before anyone writes it', async () => {
    const res = await ts.client().secrets('GET', 'sys/policies/acl/default');
    expect(res!.data).toEqual({ name: 'default', policy: DEFAULT_POLICY_TEXT });
  });

  it('reads root as a policy without text', async () => {
    const res = await ts.client().secrets('GET', 'sys/policies/acl/root');
    expect(res!.data).toEqual({ name: 'root', policy: '' });
  });

  it('stores a policy under its lower-cased name and reads back the exact text', async () => {
    expect(await ts.client().secrets('PUT', 'sys/policies/acl/Ops-Team', { body: { policy: READ_POLICIES } })).toBeUndefined();
    const res = await ts.client().secrets('GET', 'sys/policies/acl/ops-team');
    expect(res!.data).toEqual({ name: 'ops-team', policy: READ_POLICIES });
    expect(await listKeys('LIST')).toContain('ops-team');
    expect(await listKeys('LIST')).not.toContain('Ops-Team');
  });

  it('accepts a base64-encoded policy and stores the decoded text', async () => {
    const encoded = Buffer.from(READ_POLICIES).toString('base64');
    await ts.client().secrets('POST', 'sys/policies/acl/encoded', { body: { policy: encoded } });
    const res = await ts.client().secrets('GET', 'sys/policies/acl/encoded');
    expect(res!.data!.policy).toBe(READ_POLICIES);
  });

  it('refuses a policy that does not parse, naming the problem, and stores nothing', async () => {
    const bad = 'path "secret/*" {\n  capabilities = ["read", "fly"]\n}\n';
    const err = await apiError(ts.client().secrets('PUT', 'sys/policies/acl/broken', { body: { policy: bad } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors.join('\n')).toContain('unknown capability "fly"');
    expect((await apiError(ts.client().secrets('GET', 'sys/policies/acl/broken'))).statusCode).toBe(404);
    expect(await listKeys('LIST')).not.toContain('broken');
  });

  it('keeps the previous text when a rewrite does not parse', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/stable', { body: { policy: READ_POLICIES } });
    const err = await apiError(ts.client().secrets('PUT', 'sys/policies/acl/stable', { body: { policy: 'path "x" {' } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('failed to parse policy "stable"');
    const res = await ts.client().secrets('GET', 'sys/policies/acl/stable');
    expect(res!.data!.policy).toBe(READ_POLICIES);
  });

  it('requires the policy field', async () => {
    const err = await apiError(ts.client().secrets('PUT', 'sys/policies/acl/empty', { body: {} }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('"policy"');
  });

  it('refuses a policy name with characters that do not belong in one', async () => {
    const err = await apiError(ts.client().secrets('PUT', 'sys/policies/acl/bad%20name', { body: { policy: READ_POLICIES } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toContain('is invalid');
  });

  it('never writes root, whatever its case', async () => {
    for (const name of ['root', 'ROOT']) {
      const err = await apiError(ts.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: READ_POLICIES } }));
      expect(err.statusCode).toBe(400);
      expect(err.errors).toEqual(['cannot update "root" policy']);
    }
    expect((await ts.client().secrets('GET', 'sys/policies/acl/root'))!.data!.policy).toBe('');
  });

  it('never deletes root or default', async () => {
    const root = await apiError(ts.client().secrets('DELETE', 'sys/policies/acl/root'));
    expect([root.statusCode, root.errors]).toEqual([400, ['cannot delete "root" policy']]);
    const def = await apiError(ts.client().secrets('DELETE', 'sys/policies/acl/default'));
    expect([def.statusCode, def.errors]).toEqual([400, ['cannot delete "default" policy']]);
    expect(await listKeys('LIST')).toEqual(expect.arrayContaining(['default', 'root']));
  });

  it('deletes a policy; deleting it again still succeeds', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/short-lived', { body: { policy: READ_POLICIES } });
    expect(await ts.client().secrets('DELETE', 'sys/policies/acl/short-lived')).toBeUndefined();
    expect((await apiError(ts.client().secrets('GET', 'sys/policies/acl/short-lived'))).statusCode).toBe(404);
    expect(await listKeys('LIST')).not.toContain('short-lived');
    expect(await ts.client().secrets('DELETE', 'sys/policies/acl/short-lived')).toBeUndefined();
  });
});

describe('sys/policy (the older paths)', () => {
  it('lists with both keys and policies, on GET and on LIST', async () => {
    for (const method of ['GET', 'LIST']) {
      const res = await ts.client().secrets(method, 'sys/policy');
      const { keys, policies } = res!.data as { keys: string[]; policies: string[] };
      expect(keys).toEqual(expect.arrayContaining(['default', 'root']));
      expect(policies).toEqual(keys);
    }
  });

  it('writes with policy, reads back as rules', async () => {
    await ts.client().secrets('PUT', 'sys/policy/legacy-a', { body: { policy: READ_POLICIES } });
    const res = await ts.client().secrets('GET', 'sys/policy/legacy-a');
    expect(res!.data).toEqual({ name: 'legacy-a', rules: READ_POLICIES });
    expect((await ts.client().secrets('GET', 'sys/policies/acl/legacy-a'))!.data!.policy).toBe(READ_POLICIES);
  });

  it('writes with rules and warns that the field is deprecated', async () => {
    const res = await ts.client().secrets('PUT', 'sys/policy/legacy-b', { body: { rules: READ_POLICIES } });
    expect(res!.warnings!.join('\n')).toContain('"rules" is deprecated');
    expect((await ts.client().secrets('GET', 'sys/policy/legacy-b'))!.data!.rules).toBe(READ_POLICIES);
  });

  it('refuses a write with neither policy nor rules', async () => {
    const err = await apiError(ts.client().secrets('PUT', 'sys/policy/legacy-c', { body: {} }));
    expect([err.statusCode, err.errors]).toEqual([400, ["'policy' parameter not supplied or empty"]]);
  });

  it('applies the same protections and deletes', async () => {
    expect((await apiError(ts.client().secrets('PUT', 'sys/policy/root', { body: { policy: READ_POLICIES } }))).errors).toEqual([
      'cannot update "root" policy',
    ]);
    expect((await apiError(ts.client().secrets('DELETE', 'sys/policy/default'))).errors).toEqual(['cannot delete "default" policy']);
    await ts.client().secrets('PUT', 'sys/policy/legacy-d', { body: { policy: READ_POLICIES } });
    await ts.client().secrets('DELETE', 'sys/policy/legacy-d');
    expect((await apiError(ts.client().secrets('GET', 'sys/policy/legacy-d'))).statusCode).toBe(404);
  });
});

describe('policies take effect', () => {
  it('a rewrite changes what tokens holding the policy may do, on the next request', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/reader', { body: { policy: READ_POLICIES } });
    const token = await tokenWith(['reader']);
    expect((await ts.client(token).secrets('GET', 'sys/policies/acl/default'))!.data!.name).toBe('default');

    await ts.client().secrets('PUT', 'sys/policies/acl/reader', { body: { policy: 'path "nothing/*" {\n  capabilities = ["read"]\n}\n' } });
    expect((await apiError(ts.client(token).secrets('GET', 'sys/policies/acl/default'))).statusCode).toBe(403);

    await ts.client().secrets('DELETE', 'sys/policies/acl/reader');
    await ts.client().secrets('PUT', 'sys/policies/acl/reader', { body: { policy: READ_POLICIES } });
    expect((await ts.client(token).secrets('GET', 'sys/policies/acl/default'))!.data!.name).toBe('default');
  });

  it('a rewritten default policy applies to tokens that carry default', async () => {
    const token = await tokenWith([]);
    expect((await apiError(ts.client(token).secrets('GET', 'sys/policies/acl/root'))).statusCode).toBe(403);
    await ts.client().secrets('PUT', 'sys/policies/acl/default', { body: { policy: DEFAULT_POLICY_TEXT + READ_POLICIES } });
    try {
      expect((await ts.client(token).secrets('GET', 'sys/policies/acl/root'))!.data!.name).toBe('root');
    } finally {
      await ts.client().secrets('PUT', 'sys/policies/acl/default', { body: { policy: DEFAULT_POLICY_TEXT } });
    }
  });
});

describe('PolicyStore', () => {
  it('sees a change another store instance made (as another server process would)', async () => {
    const a = new PolicyStore(ts.server.services.store);
    const b = new PolicyStore(ts.server.services.store);
    await a.put('shared', READ_POLICIES);
    expect((await b.aclFor(['shared'])).allows('sys/policies/acl/x', 'read')).toBe(true);
    await a.put('shared', 'path "sys/policies/acl/*" {\n  capabilities = ["deny"]\n}\n');
    expect((await b.aclFor(['shared'])).allows('sys/policies/acl/x', 'read')).toBe(false);
    await a.delete('shared');
    expect((await b.aclFor(['shared'])).allows('sys/policies/acl/x', 'read')).toBe(false);
    expect(b.get('shared')).toBeUndefined();
  });

  it('ignores unknown policy names when building an ACL', async () => {
    const store = new PolicyStore(ts.server.services.store);
    await store.put('known', READ_POLICIES);
    const acl = await store.aclFor(['no-such-policy', 'known']);
    expect(acl.allows('sys/policies/acl/x', 'read')).toBe(true);
    expect(acl.policyNames).toEqual(['known']);
  });

  it('gives root an unrestricted ACL and default its built-in rules', async () => {
    const store = new PolicyStore(ts.server.services.store);
    expect((await store.aclFor(['root'])).root).toBe(true);
    const def = await store.aclFor(['default']);
    expect(def.root).toBe(false);
    expect(def.allows('auth/token/lookup-self', 'read')).toBe(true);
  });

  it('records create and modify indexes', async () => {
    const store = new PolicyStore(ts.server.services.store);
    const first = await store.put('indexed', READ_POLICIES);
    const second = await store.put('indexed', READ_POLICIES);
    expect(second.createIndex).toBe(first.createIndex);
    expect(second.modifyIndex).toBeGreaterThan(first.modifyIndex);
  });
});

describe('decodePolicyText', () => {
  it('decodes base64 and leaves HCL and JSON alone', () => {
    expect(decodePolicyText(Buffer.from(READ_POLICIES).toString('base64'))).toBe(READ_POLICIES);
    expect(decodePolicyText(READ_POLICIES)).toBe(READ_POLICIES);
    const json = '{"path":{"a":{"capabilities":["read"]}}}';
    expect(decodePolicyText(json)).toBe(json);
  });

  it('leaves text alone when the bytes it decodes to are not UTF-8', () => {
    const notUtf8 = Buffer.from([0xff, 0xfe, 0xfd]).toString('base64');
    expect(decodePolicyText(notUtf8)).toBe(notUtf8);
  });
});
