/**
 * The identity access list. The entries are written in-process with access-list.ts's helpers, the ones
 * login calls (login's own writes are in login/ec2-nonce.test.ts), and read, listed and deleted through
 * the HTTP API. Also: the client nonce is sealed at rest and read back only by a reader of the path (as
 * Vault), a refused update writes nothing, the deprecated identity-whitelist name, and the ACL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../../support/in-process.js';
import { statusOf } from '../../../support/wait.js';
import {
  putAccessListEntry,
  readAccessListEntry,
  updateAccessListEntry,
  type AccessListEntry,
} from '../../../../src/secrets/auth/cloud/access-list.js';
import { LISTS_TABLE } from '../../../../src/secrets/auth/cloud/mount-storage.js';

let srv: InProcessServer;
let accessor: string;
const c = () => srv.client();
const services = () => srv.server.services;

const NONCE = 'a5c1a1e3-6a8b-4c1f-9d5e-0f3e1f0b6d21';

function entry(overrides: Partial<AccessListEntry> = {}): AccessListEntry {
  return {
    role: 'web',
    client_nonce: NONCE,
    creation_time: '2024-03-01T10:00:00.123456789Z',
    disallow_reauthentication: false,
    pending_time: '2024-03-01T09:58:17Z',
    expiration_time: '2024-04-02T10:00:00.123Z',
    last_updated_time: '2024-03-01T10:00:00.123Z',
    ...overrides,
  };
}

beforeAll(async () => {
  srv = await startInProcessServer();
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  accessor = ((await c().secrets('GET', 'sys/auth'))!.data!['cloud/'] as { accessor: string }).accessor;
});
afterAll(async () => srv?.close());

describe('identity-accesslist', () => {
  it('reads an entry with its nonce, lists instance IDs, deletes', async () => {
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/identity-accesslist'))).code).toBe(404);
    await putAccessListEntry(services(), accessor, 'i-0b', entry({ role: 'db' }));
    await putAccessListEntry(services(), accessor, 'i-0a', entry());
    expect((await c().secrets('LIST', 'auth/cloud/identity-accesslist'))!.data!.keys).toEqual(['i-0a', 'i-0b']);
    expect((await c().secrets('GET', 'auth/cloud/identity-accesslist/i-0a'))!.data).toEqual({
      role: 'web',
      client_nonce: NONCE,
      creation_time: '2024-03-01T10:00:00.123456789Z',
      disallow_reauthentication: false,
      pending_time: '2024-03-01T09:58:17Z',
      expiration_time: '2024-04-02T10:00:00.123Z',
      last_updated_time: '2024-03-01T10:00:00.123Z',
    });
    expect(await c().secrets('DELETE', 'auth/cloud/identity-accesslist/i-0a')).toBeUndefined();
    expect((await statusOf(c().secrets('GET', 'auth/cloud/identity-accesslist/i-0a'))).code).toBe(404);
    expect((await c().secrets('LIST', 'auth/cloud/identity-accesslist'))!.data!.keys).toEqual(['i-0b']);
    await c().secrets('DELETE', 'auth/cloud/identity-accesslist/i-0b');
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/identity-accesslist'))).code).toBe(404);
  });

  it('keeps the nonce sealed at rest; only the helpers open it', async () => {
    await putAccessListEntry(services(), accessor, 'i-sealed', entry());
    expect(JSON.stringify(services().store.list(LISTS_TABLE))).not.toContain(NONCE);
    expect(readAccessListEntry(services(), accessor, 'i-sealed')?.client_nonce).toBe(NONCE);
    // A blanked nonce (reauthentication disallowed) stays blank, and reads back blank.
    await putAccessListEntry(services(), accessor, 'i-sealed', entry({ client_nonce: '', disallow_reauthentication: true }));
    expect(readAccessListEntry(services(), accessor, 'i-sealed')).toMatchObject({ client_nonce: '', disallow_reauthentication: true });
    expect((await c().secrets('GET', 'auth/cloud/identity-accesslist/i-sealed'))!.data).toMatchObject({ client_nonce: '', disallow_reauthentication: true });
    await c().secrets('DELETE', 'auth/cloud/identity-accesslist/i-sealed');
  });

  it('updates in one step with the current entry, and writes nothing when the change refuses', async () => {
    const first = await updateAccessListEntry(services(), accessor, 'i-upd', (current) => {
      expect(current).toBeUndefined();
      return entry();
    });
    expect(first.client_nonce).toBe(NONCE);
    await expect(
      updateAccessListEntry(services(), accessor, 'i-upd', () => {
        throw new Error('client nonce mismatch');
      }),
    ).rejects.toThrow('client nonce mismatch');
    await updateAccessListEntry(services(), accessor, 'i-upd', (current) => ({ ...current!, last_updated_time: '2024-03-02T00:00:00Z' }));
    expect(readAccessListEntry(services(), accessor, 'i-upd')).toEqual({ ...entry(), last_updated_time: '2024-03-02T00:00:00Z' });
    await c().secrets('DELETE', 'auth/cloud/identity-accesslist/i-upd');
  });

  it('serves the deprecated identity-whitelist name as the current one, without a warning (as Vault)', async () => {
    await putAccessListEntry(services(), accessor, 'i-old', entry());
    const read = await c().secrets('GET', 'auth/cloud/identity-whitelist/i-old');
    expect(read!.data!.role).toBe('web');
    expect(read!.warnings ?? []).toEqual([]);
    const listed = await c().secrets('LIST', 'auth/cloud/identity-whitelist');
    expect(listed!.data!.keys).toContain('i-old');
    expect(listed!.warnings ?? []).toEqual([]);
    expect(await c().secrets('DELETE', 'auth/cloud/identity-whitelist/i-old')).toBeUndefined();
    expect(readAccessListEntry(services(), accessor, 'i-old')).toBeUndefined();
  });

  it('needs a policy on the path: 403 without one', async () => {
    await putAccessListEntry(services(), accessor, 'i-acl', entry());
    await c().secrets('PUT', 'sys/policies/acl/al-reader', { body: { policy: 'path "auth/cloud/identity-accesslist/*" { capabilities = ["read"] }' } });
    const token = (await c().secrets('POST', 'auth/token/create', { body: { policies: 'al-reader' } }))!.auth!.client_token as string;
    expect((await statusOf(srv.client(token).secrets('DELETE', 'auth/cloud/identity-accesslist/i-acl'))).code).toBe(403);
    expect((await statusOf(srv.client(token).secrets('LIST', 'auth/cloud/identity-accesslist'))).code).toBe(403);
    expect((await srv.client(token).secrets('GET', 'auth/cloud/identity-accesslist/i-acl'))!.data).toMatchObject({ role: 'web', client_nonce: NONCE });
    // The nonce is a login credential: a token without read on the entry learns nothing of it.
    await c().secrets('PUT', 'sys/policies/acl/al-lister', { body: { policy: 'path "auth/cloud/identity-accesslist" { capabilities = ["list"] }' } });
    const lister = (await c().secrets('POST', 'auth/token/create', { body: { policies: 'al-lister' } }))!.auth!.client_token as string;
    expect((await srv.client(lister).secrets('LIST', 'auth/cloud/identity-accesslist'))!.data!.keys).toContain('i-acl');
    const denied = await statusOf(srv.client(lister).secrets('GET', 'auth/cloud/identity-accesslist/i-acl'));
    expect(denied.code).toBe(403);
    expect(JSON.stringify(denied)).not.toContain(NONCE);
    expect(readAccessListEntry(services(), accessor, 'i-acl')).toBeDefined();
  });
});
