/**
 * The server's services, built once by app.ts: the secrets side's context and the scheduler's in one
 * object, each side's handlers seeing it through the context its side declares.
 */
import type { SecretsConfig, SecretsContext } from '../secrets/context.js';
import type { SchedulerRuntime } from '../scheduler/runtime.js';
import type { LeaderForwarder } from '../cluster/forward-to-leader.js';
import type { NodeForwarder } from '../cluster/node-forwarder.js';

export interface ServerConfig extends SecretsConfig {
  dev: boolean;
  bind: string;
  port: number;
  dataDir?: string;
  logLevel: string;
  /** request bodies above this are refused with 413 */
  maxRequestBytes: number;
  /** how often expired tokens are swept, ms */
  sweepIntervalMs: number;
  /** how often the cloud auth mounts' access and deny lists are tidied, ms */
  cloudTidyIntervalMs: number;
  /** how often an exec session sends its `{}` heartbeat frame, ms */
  execHeartbeatMs: number;
  /** the node API answers only connections with a verified client certificate (TLS `node_client_cert`) */
  nodeClientCert: boolean;
}

export interface Services extends SecretsContext {
  config: ServerConfig;
  scheduler: SchedulerRuntime;
  /** sends a request only the leader answers on to it (a follower's part in node registration and heartbeats) */
  forwardToLeader: LeaderForwarder;
  /** sends a request that reaches into a task (exec, logs, files, signal) on to the server that reaches its node */
  forwardToNode: NodeForwarder;
}
