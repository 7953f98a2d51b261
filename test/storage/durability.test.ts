import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import { useFixture } from '../support/bundle-fixture.js';

/*
 * Acknowledged writes must survive `kill -9`. The writer runs in a child process (our TypeScript, bundled
 * by esbuild into node_modules/.cache so that its `lmdb` import resolves to the repo's copy), prints every
 * write the store acknowledged, and is killed mid-stream; the test then reopens the store and looks for
 * every acknowledged write.
 */

const fixture = useFixture('test/storage/fixtures/writer.ts', 'writer');

interface Ack {
  index: number;
  key: string;
  counter: number;
}

/** Runs the writer until it has printed `killAfter` acks, kills it with SIGKILL, returns every ack it printed. */
function runAndKill(dir: string, inFlight: number, killAfter: number, prefix = ''): Promise<{ acks: Ack[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture.bundle, dir, String(inFlight), prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acks: Ack[] = [];
    let buf = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /^ack (\d+) (\S+) (\d+)$/.exec(line);
        if (m) acks.push({ index: Number(m[1]), key: m[2], counter: Number(m[3]) });
      }
      if (!killed && acks.length >= killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    // 'close' waits for stdout to drain, so acks printed just before the kill are counted too.
    child.on('close', (code, signal) => {
      if (!killed) reject(new Error(`writer exited early (code ${code}): ${stderr}`));
      else resolve({ acks, signal });
    });
  });
}

async function verify(dir: string, acks: Ack[]): Promise<void> {
  const store = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  try {
    const items = new Map(store.list<{ index: number }>('items').map((e) => [e.key, e.value.index]));
    const missing = acks.filter((a) => items.get(a.key) !== a.index);
    expect(missing).toEqual([]);
    const maxIndex = Math.max(...acks.map((a) => a.index));
    const maxCounter = Math.max(...acks.map((a) => a.counter));
    expect(store.index()).toBeGreaterThanOrEqual(maxIndex);
    // The counter never loses an increment: it equals the number of item writes that reached the disk.
    expect(store.get<number>('counters', 'c')).toBe(items.size);
    expect(items.size).toBeGreaterThanOrEqual(maxCounter);
    // And the store keeps working after the crash.
    const { index } = await store.write((tx) => tx.put('after', 'crash', true));
    expect(index).toBe(store.index());
    expect(index).toBeGreaterThan(maxIndex);
  } finally {
    await store.close();
  }
}

describe('durability across kill -9', () => {
  it('keeps every acknowledged write (one write at a time)', async () => {
    const dir = path.join(fixture.tmp, 'sequential');
    const { acks, signal } = await runAndKill(dir, 1, 150);
    expect(signal).toBe('SIGKILL');
    expect(acks.length).toBeGreaterThanOrEqual(150);
    await verify(dir, acks);
  });

  it('keeps every acknowledged write (32 in flight, group commits)', async () => {
    const dir = path.join(fixture.tmp, 'concurrent');
    const { acks, signal } = await runAndKill(dir, 32, 1000);
    expect(signal).toBe('SIGKILL');
    await verify(dir, acks);
  });

  it('keeps acknowledged writes across repeated crashes of the same store', async () => {
    const dir = path.join(fixture.tmp, 'repeated');
    const all: Ack[] = [];
    for (let round = 0; round < 3; round++) {
      const { acks } = await runAndKill(dir, 8, 100 + round * 37, `r${round}-`);
      all.push(...acks);
      // Each restart continues above everything acknowledged before the crash.
      if (round > 0) expect(Math.min(...acks.map((a) => a.index))).toBeGreaterThan(Math.max(...all.slice(0, -acks.length).map((a) => a.index)));
    }
    expect(new Set(all.map((a) => a.index)).size).toBe(all.length);
    await verify(dir, all);
  });
});
