/** A task: one process (or container) run by a driver, and its per-task blocks. */
import type { Affinity, Constraint } from './constraint.js';
import type { RestartPolicy } from './policies.js';
import type { Resources } from './resources.js';
import type { Service } from './service.js';

export interface TaskLifecycle {
  Hook: string;
  Sidecar: boolean;
}

export interface LogConfig {
  MaxFiles: number;
  MaxFileSizeMB: number;
  Disabled: boolean;
}

export interface TaskArtifact {
  GetterSource: string;
  GetterOptions: Record<string, string> | null;
  GetterHeaders: Record<string, string> | null;
  GetterMode: string;
  GetterInsecure: boolean;
  RelativeDest: string;
  Chown: boolean;
}

export interface ChangeScript {
  Command: string;
  Args: string[];
  Timeout: number;
  FailOnError: boolean;
}

export interface Template {
  SourcePath: string;
  DestPath: string;
  EmbeddedTmpl: string;
  ChangeMode: string;
  ChangeSignal: string;
  ChangeScript: ChangeScript | null;
  Once: boolean;
  Splay: number;
  Perms: string;
  Uid: number | null;
  Gid: number | null;
  LeftDelim: string;
  RightDelim: string;
  Envvars: boolean;
  VaultGrace: number;
  Wait: { Min: number | null; Max: number | null } | null;
  ErrMissingKey: boolean;
}

export interface DispatchPayloadConfig {
  File: string;
}

export interface Vault {
  Role: string;
  Namespace: string;
  Cluster: string;
  Env: boolean;
  DisableFile: boolean;
  ChangeMode: string;
  ChangeSignal: string;
  AllowTokenExpiration: boolean;
}

export interface WorkloadIdentity {
  Name: string;
  Audience: string[] | null;
  ChangeMode: string;
  ChangeSignal: string;
  Env: boolean;
  File: boolean;
  Filepath: string;
  ServiceName: string;
  TTL: number;
  ExtraClaims: Record<string, string> | null;
}

export interface Secret {
  Name: string;
  Provider: string;
  Path: string;
  Config: Record<string, unknown> | null;
  Env: Record<string, string> | null;
}

export interface VolumeMount {
  Volume: string;
  Destination: string;
  ReadOnly: boolean;
  PropagationMode: string;
  SELinuxLabel: string;
}

export interface TaskAction {
  Name: string;
  Command: string;
  Args: string[] | null;
}

export interface TaskSchedule {
  Cron: { Start: string; End: string; Timezone: string } | null;
}

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

export const LIFECYCLE_HOOKS = ['prestart', 'poststart', 'poststop'] as const;
export const GETTER_MODES = ['any', 'file', 'dir'] as const;
export const TEMPLATE_CHANGE_MODES = ['noop', 'restart', 'signal', 'script'] as const;
export const DEFAULT_KILL_TIMEOUT = 5_000_000_000;
export const DEFAULT_IDENTITY_AUDIENCE = 'nomad.io';

export function defaultLogConfig(): LogConfig {
  return { MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false };
}
