/**
 * Points the process's metrics at this server: the gauges read when scraped (the scheduler's state and
 * broker, leadership, the policies, the store's size) read its parts, and the process itself (CPU,
 * memory, GC, event-loop lag) is measured from here on. One server per process is what runs in
 * production; when tests build several, the last one built is the one scraped.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import { setTelemetryNaming } from '../shared/metrics/registry.js';
import { measureRuntime } from '../shared/metrics/runtime.js';
import { watchScheduler } from '../scheduler/telemetry.js';
import { watchLeadership } from '../cluster/telemetry.js';
import { watchPolicies } from '../secrets/policy/telemetry.js';
import { watchStoreSize } from './store-metrics.js';
import type { Services } from './services.js';

/** `dataDir` holds the LMDB state, when that is where the state is kept. Answers the function that stops watching. */
export function watchServerMetrics(services: Services, dataDir: string | undefined): () => void {
  measureRuntime();
  // go-metrics' host name is the machine's short name: a dotted one would add segments to every gauge.
  setTelemetryNaming({ hostname: services.config.telemetry.disableHostname ? undefined : hostname().split('.')[0] });
  const stops = [
    watchScheduler({ store: services.store, runtime: services.scheduler }),
    watchLeadership(services.leadership),
    watchPolicies(services.store),
    watchStoreSize(dataDir && path.join(dataDir, 'state')),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
