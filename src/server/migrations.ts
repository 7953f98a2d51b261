/**
 * The product's schema: every migration the state has been through, in order. They live here, with the
 * assembly, because each one rewrites a feature's tables (the scheduler's, the secrets side's) while the
 * store that runs them (storage/migrations.ts) knows no feature. A version, once released, keeps its
 * number and its effect: a data dir records the last version it ran.
 */
import type { Migration } from '../storage/migrations.js';
import { rebuildNodeUsage } from '../scheduler/state/allocs.js';
import { rebuildSystemJobs } from '../scheduler/state/system-jobs.js';
import { buildListStubs } from '../scheduler/state/list-stubs-migration.js';
import { rebuildDrainingNodes } from '../scheduler/state/node-drain.js';
import { rebuildPeriodicJobs } from '../scheduler/state/periodic-jobs.js';
import { keyAllocsByCreation } from '../scheduler/state/alloc-keys-migration.js';
import { keyNodeEntriesByCreation } from '../scheduler/state/by-node-keys-migration.js';
import { splitCloudTables } from '../secrets/auth/cloud/tables-migration.js';
import { rebuildDeploymentDeadlines } from '../scheduler/state/deployments.js';
import { buildAllocPlacements, moveUsageToStubs } from '../scheduler/state/alloc-memory-tables.js';
import { packAllocRecords } from '../scheduler/state/pack-allocs-migration.js';

export const SCHEMA_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'initial layout',
    // Tables are key prefixes and need no creation; the version bump alone marks the layout.
    up() {},
  },
  {
    version: 2,
    description: 'node usage sums and system job index',
    up(tx) {
      rebuildNodeUsage(tx);
      rebuildSystemJobs(tx);
    },
  },
  {
    version: 3,
    description: 'allocation and job list stubs',
    up(tx) {
      buildListStubs(tx);
    },
  },
  {
    version: 4,
    description: 'draining nodes and periodic jobs indexes',
    up(tx) {
      rebuildDrainingNodes(tx);
      rebuildPeriodicJobs(tx);
    },
  },
  {
    version: 5,
    description: 'allocations keyed by creation',
    up(tx) {
      keyAllocsByCreation(tx);
    },
  },
  {
    version: 6,
    description: 'node allocation entries keyed by creation',
    up(tx) {
      keyNodeEntriesByCreation(tx);
    },
  },
  {
    version: 7,
    description: 'cloud auth records in a table per kind',
    up(tx) {
      splitCloudTables(tx);
    },
  },
  {
    version: 8,
    description: 'running deployments indexed by their next progress deadline',
    up(tx) {
      rebuildDeploymentDeadlines(tx);
    },
  },
  {
    version: 9,
    description: 'allocation placements keyed by creation',
    up(tx) {
      buildAllocPlacements(tx);
    },
  },
  {
    version: 10,
    description: 'key/value secrets engine tables (kv_v1, kv_meta, kv_versions, kv_config) and mount moves',
    // New tables, empty on every store this build opens: tables are key prefixes and need no creation.
    up() {},
  },
  {
    version: 11,
    description: 'allocation records and their stubs without their zero-valued fields',
    up(tx) {
      packAllocRecords(tx);
    },
  },
  {
    version: 12,
    description: "allocation usage kept in the stubs instead of alloc-placements (the LMDB store derives its allocation indexes from the stubs)",
    up(tx) {
      moveUsageToStubs(tx);
    },
  },
];
