/**
 * What the scheduler side's pipeline and handlers reach, declared here so that the side depends on what
 * it uses and on nothing that builds it: the server assembles one object that is this and the secrets
 * side's context at once. Of the secrets side it reads only what checks a caller's token.
 */
import type { Store } from '../storage/store.js';
import type { TelemetryConfig } from '../shared/metrics/telemetry-config.js';
import type { Seal } from '../storage/seal.js';
import type { Logger } from '../shared/log.js';
import type { Leadership } from '../cluster/leadership.js';
import type { LeaderForwarder } from '../cluster/forward-to-leader.js';
import type { NodeForwarder } from '../cluster/node-forwarder.js';
import type { TokenAuthority } from '../secrets/context.js';
import type { SchedulerRuntime } from './runtime.js';
import type { EventBroker } from './events/broker.js';

/** The server's settings the scheduler side reads (GET /v1/agent/self answers most of them). */
export interface SchedulerConfig {
  dev: boolean;
  bind: string;
  port: number;
  dataDir?: string;
  logLevel: string;
  /** how often an exec session sends its `{}` heartbeat frame, ms */
  execHeartbeatMs: number;
  /** the node API answers only connections with a verified client certificate (TLS `node_client_cert`) */
  nodeClientCert: boolean;
  /** the `telemetry` block: who may read /v1/metrics, and in which formats */
  telemetry: TelemetryConfig;
}

export interface SchedulerContext extends TokenAuthority {
  version: string;
  config: SchedulerConfig;
  log: Logger;
  store: Store;
  /** the keyring: the workload identities' signing key is kept sealed with it */
  seal: Seal;
  scheduler: SchedulerRuntime;
  /** which server of the cluster leads (a server alone on its state always does) */
  leadership: Leadership;
  /** sends a request only the leader answers on to it (a follower's part in node registration and heartbeats) */
  forwardToLeader: LeaderForwarder;
  /** sends a request that reaches into a task (exec, logs, files, signal) on to the server that reaches its node */
  forwardToNode: NodeForwarder;
  /** the event stream's broker; undefined when the server runs without one (event_buffer_size = 0) */
  events?: EventBroker;
  /** true once shutdown began: blocking queries answer at once instead of waiting on */
  stopping: boolean;
  /** aborted when shutdown begins: long-lived streams (log follows, exec sessions) end on it */
  shutdown: AbortSignal;
}
