/**
 * The audit log of requests to KV mounts, whose paths are the secrets side's though no fixed prefix says
 * so: a GET with list=true is a `list` as Vault names it, in the root namespace, and the answer is read as
 * Vault's envelope (its data HMAC'd, no secret value in the file).
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { makeTempDir } from '../../support/server.js';

interface Line {
  type: 'request' | 'response';
  request: { operation: string; path: string; namespace: { id: string }; data?: Record<string, unknown> };
  response?: { status: number; data?: Record<string, unknown> };
}

let ts: InProcessServer;
let dir: string;
let auditFile: string;
const PASSWORD = 'kv-audit-password-never-logged';

beforeAll(async () => {
  dir = await makeTempDir('svc-kv-audit-');
  auditFile = path.join(dir, 'audit.log');
  ts = await startInProcessServer({ auditFile });
  await ts.client().secrets('POST', 'sys/mounts/secret', { body: { type: 'kv', options: { version: '2' } } });
  await ts.client().secrets('POST', 'sys/mounts/team/plain', { body: { type: 'kv' } });
  await ts.client().secrets('PUT', 'secret/data/app/db', { body: { data: { password: PASSWORD } } });
  await ts.client().secrets('PUT', 'team/plain/app', { body: { password: PASSWORD } });
});
afterAll(async () => {
  await ts?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lines = async (): Promise<Line[]> =>
  (await readFile(auditFile, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

const last = async (p: string, type: Line['type']) => (await lines()).filter((l) => l.request.path === p && l.type === type).at(-1)!;

describe('the audit log of KV requests', () => {
  it('names a GET with list=true a list, on a version 2 and a nested version 1 mount, in the root namespace', async () => {
    await ts.client().secrets('GET', 'secret/metadata/app', { query: { list: 'true' } });
    await ts.client().secrets('GET', 'team/plain', { query: { list: 'true' } });
    for (const p of ['secret/metadata/app', 'team/plain']) {
      const request = await last(p, 'request');
      expect(request.request).toMatchObject({ operation: 'list', namespace: { id: 'root' }, data: { list: expect.stringMatching(/^hmac-sha256:/) } });
      const response = await last(p, 'response');
      expect(response.response).toEqual({ status: 200, data: { keys: [expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/)] } });
    }
    await ts.client().secrets('GET', 'secret/data/app/db');
    expect((await last('secret/data/app/db', 'request')).request.operation).toBe('read');
  });

  it('logs a read\'s answer as the envelope\'s data, each value HMAC\'d, and never the secret', async () => {
    await ts.client().secrets('GET', 'secret/data/app/db');
    const read = await last('secret/data/app/db', 'response');
    expect(read.response!.data).toMatchObject({ data: { password: expect.stringMatching(/^hmac-sha256:/) }, metadata: { version: 1 } });
    expect(Object.keys(read.response!.data!)).toEqual(['data', 'metadata']);
    expect(await readFile(auditFile, 'utf8')).not.toContain(PASSWORD);
  });
});
