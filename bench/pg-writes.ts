// The PostgreSQL store's write path alone, without servers or HTTP: `n` stores on one database (as n
// server processes would open it; here in one process) each run `clients` concurrent write loops for a
// while, every store writing its own table, or all of them the same one. The figure is commits per
// second over all stores, for 1, 2 and 3 stores: whether writes of different tables on different
// processes commit side by side. Run by bench/pg-writes.mjs.
import { openPgStore } from '../src/storage/pg-store.js';
import { SCHEMA_MIGRATIONS } from '../src/server/migrations.js';
import type { Store } from '../src/storage/store.js';
import { createDatabase, startPostgres } from '../test/support/postgres.js';

const SECONDS = Number(process.env.BENCH_PGW_S ?? 5);
const CLIENTS = Number(process.env.BENCH_PGW_CLIENTS ?? 8);

async function run(stores: Store[], sameTable: boolean): Promise<number> {
  let writes = 0;
  const stopAt = Date.now() + SECONDS * 1000;
  await Promise.all(
    stores.flatMap((store, s) =>
      Array.from({ length: CLIENTS }, async (_, c) => {
        const table = sameTable ? 'shared' : `table-${s}`;
        for (let i = 0; Date.now() < stopAt; i++) {
          await store.write((tx) => {
            const n = tx.get<number>(table, `k${c % 4}`) ?? 0;
            tx.put(table, `k${c % 4}`, n + 1);
            tx.put(table, `v${s}-${c}-${i % 50}`, { s, c, i, pad: 'x'.repeat(200) });
          });
          writes++;
        }
      }),
    ),
  );
  return writes / SECONDS;
}

const pg = await startPostgres();
try {
  let dbs = 0;
  for (const sameTable of [false, true]) {
    for (const n of [1, 2, 3]) {
      const url = await createDatabase(pg.url, `pgw_${++dbs}`);
      const stores = await Promise.all(Array.from({ length: n }, () => openPgStore({ url, migrations: SCHEMA_MIGRATIONS })));
      await run(stores, sameTable);
      const rate = await run(stores, sameTable);
      console.log(`${sameTable ? 'one table for all' : 'a table each'}\t${n} store${n === 1 ? '' : 's'}\t${Math.round(rate)} writes/s`);
      await Promise.all(stores.map((s) => s.close()));
    }
  }
} finally {
  await pg.stop();
}
