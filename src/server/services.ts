/**
 * The server's services, built once by app.ts: the secrets side's context and the scheduler's in one
 * object, each side's handlers seeing it through the context its side declares.
 */
import type { SecretsConfig, SecretsContext } from '../secrets/context.js';
import type { SchedulerConfig, SchedulerContext } from '../scheduler/context.js';

/** Both sides' settings, and those only the server's own loops and listener read. */
export interface ServerConfig extends SecretsConfig, SchedulerConfig {
  /** request bodies above this are refused with 413 */
  maxRequestBytes: number;
  /** how often expired tokens are swept, ms */
  sweepIntervalMs: number;
  /** how often the cloud auth mounts' access and deny lists are tidied, ms */
  cloudTidyIntervalMs: number;
  /** how often this server rewrites its cluster member record (its LastSeen), ms */
  memberHeartbeatMs: number;
}

export interface Services extends SecretsContext, SchedulerContext {
  config: ServerConfig;
}
