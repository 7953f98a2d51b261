import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { ACCESSORS_TABLE, PARENTS_TABLE, TOKENS_TABLE } from '../../../src/secrets/token/token-store.js';

let srv: TestServer;
const secrets: string[] = [];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

beforeAll(async () => {
  srv = await startTestServer();
  const root = srv.client();
  await root.secrets('PUT', 'sys/policies/acl/creator', { body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' } });
  const make = async (body: Record<string, unknown>, client = root) => {
    const res = await client.secrets('POST', 'auth/token/create', { body });
    const secret = res!.auth!.client_token as string;
    secrets.push(secret);
    return secret;
  };
  const parent = await make({ policies: 'creator', meta: { owner: 'storage-test' } });
  await make({ policies: 'default' }, srv.client(parent));
  await make({ policies: 'default', type: 'batch' });
  await make({ policies: 'default', id: 'custom-secret-value-1234' });
  await make({ policies: 'default', num_uses: 3 });
  // Renewals and use counting rewrite entries; those writes must not carry the secret either.
  await srv.client(secrets[0]).secrets('POST', 'auth/token/renew-self', { body: { increment: '2h' } });
  await srv.client(secrets[4]).secrets('GET', 'auth/token/lookup-self');
  secrets.push(srv.rootToken);
});

afterAll(async () => {
  await srv?.close();
});

describe('token storage', () => {
  it('keys and values of the token tables never contain a secret', () => {
    const { store } = srv.server.services;
    const rows = [TOKENS_TABLE, ACCESSORS_TABLE, PARENTS_TABLE].flatMap((t) => store.list<unknown>(t));
    expect(store.list(TOKENS_TABLE).length).toBeGreaterThanOrEqual(secrets.length);
    const text = JSON.stringify(rows);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('no file in the data directory contains a secret', async () => {
    const files = await filesUnder(srv.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const secret of secrets) expect(bytes.includes(Buffer.from(secret)), `${secret} found in ${file}`).toBe(false);
    }
  });

  it('tokens are stored under the salted hash of the secret', () => {
    const { store, seal } = srv.server.services;
    for (const secret of secrets) expect(store.get(TOKENS_TABLE, seal.hashToken(secret))).toBeDefined();
  });
});
