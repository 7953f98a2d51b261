// Runs bench/pg-writes.ts (bundled, as it is TypeScript): the PostgreSQL store's commits per second with
// 1, 2 and 3 stores on one database. `node bench/pg-writes.mjs`; BENCH_PGW_S=5 BENCH_PGW_CLIENTS=8.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { bundleBenchScript } from './lib.mjs';

const { dir, script } = await bundleBenchScript('pg-writes');
try {
  const run = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
