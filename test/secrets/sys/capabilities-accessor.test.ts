import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';

let ts: InProcessServer;
let reader: { secret: string; accessor: string };

beforeAll(async () => {
  ts = await startInProcessServer();
  await ts.client().secrets('PUT', 'sys/policies/acl/reader', { body: { policy: 'path "secret/*" {\n  capabilities = ["read", "list"]\n}\n' } });
  const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['reader'] } });
  reader = { secret: created!.auth!.client_token as string, accessor: created!.auth!.accessor as string };
});

afterAll(async () => {
  await ts?.close();
});

describe('sys/capabilities-accessor', () => {
  it("answers the capabilities of the token the accessor names, in sys/capabilities' shape", async () => {
    const one = await ts.client().secrets('POST', 'sys/capabilities-accessor', { body: { accessor: reader.accessor, paths: ['secret/app'] } });
    expect(one!.data).toEqual({ capabilities: ['list', 'read'], 'secret/app': ['list', 'read'] });
    const two = await ts.client().secrets('POST', 'sys/capabilities-accessor', { body: { accessor: reader.accessor, paths: ['secret/app', 'sys/auth'] } });
    expect(two!.data).toEqual({ 'secret/app': ['list', 'read'], 'sys/auth': ['deny'] });
  });

  it('refuses an accessor that names no live token with 400, and a caller without access with 403', async () => {
    const unknown = await ts.client().secrets('POST', 'sys/capabilities-accessor', { body: { accessor: 'nope', paths: ['secret/app'] } }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ApiError);
    expect((unknown as ApiError).statusCode).toBe(400);
    expect((unknown as ApiError).errors).toEqual(['invalid accessor']);
    const denied = await ts.client(reader.secret).secrets('POST', 'sys/capabilities-accessor', { body: { accessor: reader.accessor, path: 'secret/app' } }).catch((e: unknown) => e);
    expect((denied as ApiError).statusCode).toBe(403);
  });
});
