/**
 * A KV secret's value is nowhere in the clear but in the answer to the caller: not in the LMDB files,
 * not in the audit file (request and response values are HMAC'd), not in the server's log.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { makeTempDir } from '../../support/server.js';
import { MERGE_PATCH } from './kv-helpers.js';

const V2_SECRET = 'correct-horse-battery-staple-v2';
const V1_SECRET = 'plain-kv-value-never-stored-v1';
const PATCHED = 'patched-value-also-secret';

let ts: InProcessServer;
let auditFile: string;
let auditDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  auditDir = await makeTempDir('svc-kv-audit-');
  auditFile = path.join(auditDir, 'audit.log');
  ts = await startInProcessServer({ memoryStorage: false, auditFile, logWrite: (line: string) => void logLines.push(line) });
  const c = ts.client();
  await c.secrets('POST', 'sys/mounts/secret', { body: { type: 'kv-v2' } });
  await c.secrets('POST', 'sys/mounts/plain', { body: { type: 'kv' } });
  await c.secrets('POST', 'secret/data/db', { body: { data: { password: V2_SECRET } } });
  await c.secrets('PATCH', 'secret/data/db', { headers: MERGE_PATCH, body: { data: { other: PATCHED } } });
  await c.secrets('POST', 'plain/db', { body: { password: V1_SECRET } });
  // Read back, so the answers (which carry the values) reach the audit device too.
  expect((await c.secrets('GET', 'secret/data/db'))!.data!.data).toEqual({ password: V2_SECRET, other: PATCHED });
  expect((await c.secrets('GET', 'plain/db'))!.data).toEqual({ password: V1_SECRET });
  // A bad write must not echo the value back either.
  const refused = await c.secrets('POST', 'secret/data/bad', { body: { data: V2_SECRET } }).then(
    () => undefined,
    (err: Error) => err,
  );
  expect(refused?.message).toMatch(/field "data" must be a JSON object, got the given value/);
});

afterAll(async () => {
  await ts?.close();
  await rm(auditDir, { recursive: true, force: true });
});

async function filesBelow(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesBelow(full)));
    else out.push(full);
  }
  return out;
}

describe('KV values at rest and in the logs', () => {
  it('are sealed in the store: no file of the data dir holds them', async () => {
    const files = await filesBelow(ts.dataDir);
    expect(files.some((f) => f.endsWith('.mdb'))).toBe(true);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const secret of [V2_SECRET, V1_SECRET, PATCHED]) expect(bytes.includes(Buffer.from(secret)), `${file} holds ${secret}`).toBe(false);
    }
    const record = ts.server.services.store.list<{ sealed: string }>('kv_versions')[0].value;
    expect(record.sealed).toMatch(/^v1:/);
  });

  it('are HMAC\'d in the audit file, which still records the requests', async () => {
    const text = await readFile(auditFile, 'utf8');
    expect(text).toContain('secret/data/db');
    for (const secret of [V2_SECRET, V1_SECRET, PATCHED]) expect(text).not.toContain(secret);
    const hash = ts.server.services.audit!.hash(V2_SECRET)!;
    expect(text).toContain(hash);
  });

  it('never reach the server log', () => {
    const log = logLines.join('\n');
    for (const secret of [V2_SECRET, V1_SECRET, PATCHED]) expect(log).not.toContain(secret);
  });
});
