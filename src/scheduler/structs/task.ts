/** A task: one process (or container) run by a driver, and its per-task blocks (declared by their field tables). */
import { defaultsOf, type StructOf } from '../wire/job/fields.js';
import {
  ACTION,
  ARTIFACT,
  CHANGE_SCRIPT,
  DISPATCH_PAYLOAD,
  IDENTITY,
  LIFECYCLE,
  LOG_CONFIG,
  SECRET,
  TASK_SCHEDULE,
  TEMPLATE,
  VAULT,
  VOLUME_MOUNT,
} from '../wire/job/task.js';
import type { Affinity, Constraint } from './constraint.js';
import type { RestartPolicy } from './policies.js';
import type { Resources } from './resources.js';
import type { Service } from './service.js';

export type TaskLifecycle = StructOf<typeof LIFECYCLE>;
export type LogConfig = StructOf<typeof LOG_CONFIG>;
export type TaskArtifact = StructOf<typeof ARTIFACT>;
export type ChangeScript = StructOf<typeof CHANGE_SCRIPT>;
export type Template = StructOf<typeof TEMPLATE>;
export type DispatchPayloadConfig = StructOf<typeof DISPATCH_PAYLOAD>;
export type Vault = StructOf<typeof VAULT>;
export type WorkloadIdentity = StructOf<typeof IDENTITY>;
export type Secret = StructOf<typeof SECRET>;
export type VolumeMount = StructOf<typeof VOLUME_MOUNT>;
export type TaskAction = StructOf<typeof ACTION>;
export type TaskSchedule = StructOf<typeof TASK_SCHEDULE>;

export interface Task {
  Name: string;
  Driver: string;
  User: string;
  Config: Record<string, unknown> | null;
  Env: Record<string, string> | null;
  Services: Service[] | null;
  Vault: Vault | null;
  Consul: Record<string, unknown> | null;
  Templates: Template[] | null;
  Constraints: Constraint[] | null;
  Affinities: Affinity[] | null;
  Resources: Resources;
  RestartPolicy: RestartPolicy;
  DispatchPayload: DispatchPayloadConfig | null;
  Lifecycle: TaskLifecycle | null;
  Meta: Record<string, string> | null;
  KillTimeout: number;
  LogConfig: LogConfig;
  Artifacts: TaskArtifact[] | null;
  Leader: boolean;
  ShutdownDelay: number;
  VolumeMounts: VolumeMount[] | null;
  ScalingPolicies: Record<string, unknown>[] | null;
  KillSignal: string;
  Kind: string;
  CSIPluginConfig: Record<string, unknown> | null;
  Identity: WorkloadIdentity | null;
  Identities: WorkloadIdentity[] | null;
  Actions: TaskAction[] | null;
  Schedule: TaskSchedule | null;
  Secrets: Secret[] | null;
}

export const DEFAULT_KILL_TIMEOUT = 5_000_000_000;

export function defaultLogConfig(): LogConfig {
  return defaultsOf(LOG_CONFIG);
}
