/**
 * sys/internal/ui/format-policy: the web UI's `svc policy fmt`. It answers the text `svc policy fmt` would
 * write (the same formatter on the same text), refuses what a policy write refuses with the same message
 * (the line and column), refuses JSON, stores nothing, and is open to any token through `default`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { formatHcl } from '../../../src/shared/hcl/format.js';

let srv: InProcessServer;

type Body = Record<string, unknown>;

const MESSY = `# who deploys
path "secret/data/deploy/*"   {
capabilities=["read","list"]
}


namespace "default" {
    policy="read"
  capabilities = [ "submit-job","dispatch-job" ]   # and no more
}
node {
policy   =   "read"
}`;

const FORMATTED = `# who deploys
path "secret/data/deploy/*" {
  capabilities = ["read", "list"]
}

namespace "default" {
  policy       = "read"
  capabilities = ["submit-job", "dispatch-job"] # and no more
}
node {
  policy = "read"
}
`;

const format = (body: unknown, token?: string) => srv.request('POST', '/v1/sys/internal/ui/format-policy', { body, token });

async function tokenWith(policies: string[], noDefaultPolicy = false): Promise<string> {
  const { secret } = await srv.server.services.tokens.create({
    policies,
    noDefaultPolicy,
    path: 'auth/token/create',
    mountAccessor: srv.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

beforeAll(async () => {
  srv = await startInProcessServer();
  srv.server.ready();
});
afterAll(async () => {
  await srv?.close();
});

describe('sys/internal/ui/format-policy', () => {
  it('answers the policy laid out as `svc policy fmt` lays it out, in the data envelope', async () => {
    const a = await format({ policy: MESSY });
    expect(a.status).toBe(200);
    const formatted = ((a.body as Body).data as Body).policy;
    expect(formatted).toBe(FORMATTED);
    expect(formatted).toBe(formatHcl(MESSY));
    // Formatting is a fixed point: the formatted text comes back unchanged.
    expect(((await format({ policy: FORMATTED })).body as Body).data).toEqual({ policy: FORMATTED });
  });

  it('stores nothing', async () => {
    const names = async () => ((await srv.request('LIST', '/v1/sys/policies/acl')).body as { data: Body }).data;
    const before = await names();
    expect((await format({ policy: MESSY, name: 'not-stored' })).status).toBe(200);
    expect(await names()).toEqual(before);
    expect((await srv.request('GET', '/v1/sys/policies/acl/not-stored')).status).toBe(404);
  });

  it('refuses a policy that does not parse with the message a write would give, naming the line', async () => {
    const broken = 'path "secret/data/*" {\n  capabilities = ["read"]\n  = "blue"\n}\n';
    const a = await format({ policy: broken, name: 'Deployers' });
    const written = await srv.request('PUT', '/v1/sys/policies/acl/deployers', { body: { policy: broken } });
    expect(a).toMatchObject({ status: 400, body: { errors: ['failed to parse policy "deployers": line 3, column 3: Expected a name, found "="'] } });
    expect(written).toMatchObject({ status: 400, body: a.body });

    // A policy that reads as HCL but grants what does not exist is refused at its block's line too.
    const unknown = await format({ policy: 'path "a" {\n  capabilities = ["read"]\n}\n\npath "b" {\n  capabilities = ["fly"]\n}\n' });
    expect(unknown.status).toBe(400);
    expect((unknown.body as Body).errors).toEqual([expect.stringMatching(/^failed to parse policy "policy": line 5, column 1: path "b": unknown capability "fly"/)]);
  });

  it('refuses a JSON policy', async () => {
    const a = await format({ policy: '  {"path": {"secret/*": {"capabilities": ["read"]}}}' });
    expect(a).toMatchObject({ status: 400, body: { errors: ['JSON policies are not formatted'] } });
  });

  it('names the field of a request it cannot take', async () => {
    expect(await format({})).toMatchObject({ status: 400, body: { errors: ['missing required field "policy"'] } });
    const notText = await format({ policy: { path: 'x' } });
    expect(notText.status).toBe(400);
    expect((notText.body as Body).errors).toEqual([expect.stringContaining('"policy"')]);
    const badName = await format({ policy: FORMATTED, name: 'a/b' });
    expect(badName).toMatchObject({ status: 400, body: { errors: ['field "name": policy name "a/b" is invalid: use only letters, digits, "-", "_" and "."'] } });
  });

  it('serves a token that has only the default policy, and refuses one without it and a request without a token', async () => {
    const defaultOnly = await tokenWith([]);
    expect(await format({ policy: MESSY }, defaultOnly)).toMatchObject({ status: 200, body: { data: { policy: FORMATTED } } });

    expect((await srv.request('PUT', '/v1/sys/policies/acl/reader', { body: { policy: 'path "secret/*" {\n  capabilities = ["read"]\n}\n' } })).status).toBe(204);
    const withoutDefault = await tokenWith(['reader'], true);
    expect((await format({ policy: MESSY }, withoutDefault)).status).toBe(403);
    expect((await format({ policy: MESSY }, '')).status).toBe(403);
  });
});
