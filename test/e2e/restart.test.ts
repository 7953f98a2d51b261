/**
 * Durability: a write is acknowledged only once it is on disk, so `kill -9` right after the answers
 * must lose none of them. The server runs as a real child process so SIGKILL gives it no chance to flush.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

const startSvc = (dataDir: string, home: string) => spawnServer([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });

describe('kill -9 loses no acknowledged write', () => {
  let dataDir: string;
  let home: string;
  let proc: SpawnedServer | undefined;

  beforeAll(async () => {
    dataDir = path.join(await makeTempDir('svc-restart-'), 'data');
    home = await makeTempDir('svc-restart-home-');
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await proc?.exited;
    await rm(path.dirname(dataDir), { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('policies, namespaces and tokens acknowledged before SIGKILL are all there after a restart', async () => {
    proc = await startSvc(dataDir, home);
    const root = proc.rootToken!;
    expect(root).toBeTruthy();
    const api = new ApiClient({ address: proc.url, token: root });

    const policies = Array.from({ length: 15 }, (_, i) => `durable-${i}`);
    const namespaces = Array.from({ length: 10 }, (_, i) => `ns-${i}`);
    const tokens: Array<{ secret: string; accessor: string; policy: string }> = [];

    // Sequential and concurrent writes both: a batching store must flush every batch before answering.
    for (const name of policies.slice(0, 5)) {
      await api.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `path "secret/${name}/*" { capabilities = ["read"] }` } });
    }
    await Promise.all(
      policies.slice(5).map((name) => api.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `path "secret/${name}/*" { capabilities = ["read"] }` } })),
    );
    await Promise.all(namespaces.map((name, i) => api.scheduler('POST', `/v1/namespace/${name}`, { body: { Name: name, Description: `number ${i}` } })));
    const created = await Promise.all(
      policies.slice(0, 8).map(async (policy) => {
        const answer = await api.secrets('POST', 'auth/token/create', { body: { policies: [policy], ttl: '2h' } });
        return { secret: String(answer?.auth?.client_token), accessor: String(answer?.auth?.accessor), policy };
      }),
    );
    tokens.push(...created);
    // The last acknowledged write is a delete: it must stay deleted.
    await api.secrets('DELETE', `sys/policies/acl/${policies[14]}`);

    proc.child.kill('SIGKILL');
    expect(await proc.exited).toEqual({ code: null, signal: 'SIGKILL' });

    proc = await startSvc(dataDir, home);
    expect(proc.rootToken).toBeUndefined();
    const after = new ApiClient({ address: proc.url, token: root });

    for (const name of policies.slice(0, 14)) {
      const read = await after.secrets('GET', `sys/policies/acl/${name}`);
      expect(read?.data?.policy, name).toBe(`path "secret/${name}/*" { capabilities = ["read"] }`);
    }
    await expect(after.secrets('GET', `sys/policies/acl/${policies[14]}`)).rejects.toMatchObject({ statusCode: 404 });

    const { body } = await after.scheduler<Array<{ Name: string; Description: string; ModifyIndex: number }>>('GET', '/v1/namespaces');
    for (const [i, name] of namespaces.entries()) expect(body.find((n) => n.Name === name)?.Description, name).toBe(`number ${i}`);

    for (const t of tokens) {
      const self = await new ApiClient({ address: proc.url, token: t.secret }).secrets('GET', 'auth/token/lookup-self');
      expect(self?.data?.accessor).toBe(t.accessor);
      expect(self?.data?.policies).toEqual(expect.arrayContaining([t.policy]));
    }

    // Writes keep working, with indexes past everything acknowledged before the crash.
    const next = await after.scheduler<{ Index: number }>('POST', '/v1/namespace/after-crash', { body: { Name: 'after-crash' } });
    const previous = Math.max(...body.map((n) => n.ModifyIndex));
    expect(next.body.Index).toBeGreaterThan(previous);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    proc = undefined;
  });
});
