// The PostgreSQL that bench/pg-cluster.mjs starts its servers on: the tests' private instance, removed when
// it stops or when the process that started it dies. Bundled by bench/lib.mjs's bundleBenchScript, since
// it is TypeScript.
export { createDatabase, startPostgres } from '../test/support/postgres.js';
