/** A task: one process (or container) run by a driver, and its per-task blocks, as their field tables declare them. */
import type { StructOf } from '../wire/job/fields.js';
import {
  ACTION,
  ARTIFACT,
  CHANGE_SCRIPT,
  DISPATCH_PAYLOAD,
  IDENTITY,
  LIFECYCLE,
  LOG_CONFIG,
  SECRET,
  TASK,
  TASK_SCHEDULE,
  TEMPLATE,
  VAULT,
  VOLUME_MOUNT,
} from '../wire/job/task.js';

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

export type Task = StructOf<typeof TASK>;

export const DEFAULT_KILL_TIMEOUT = TASK.KillTimeout.default;

