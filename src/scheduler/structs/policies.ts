/**
 * Restart, reschedule, update, migrate, periodic and parameterized policies, and their defaults by job type,
 * derived from their field tables. All durations are int64 nanoseconds as Nomad's JSON carries them.
 */
import { defaultsOf, zeroOf, type StructOf } from '../wire/job/fields.js';
import {
  DISCONNECT,
  EPHEMERAL_DISK,
  MIGRATE,
  PARAMETERIZED,
  PERIODIC,
  RESCHEDULE,
  RESTART,
  SCALING,
  UPDATE,
} from '../wire/job/policies.js';

export type RestartPolicy = StructOf<typeof RESTART>;
export type ReschedulePolicy = StructOf<typeof RESCHEDULE>;
export type UpdateStrategy = StructOf<typeof UPDATE>;
export type MigrateStrategy = StructOf<typeof MIGRATE>;
export type PeriodicConfig = StructOf<typeof PERIODIC>;
export type ParameterizedJobConfig = StructOf<typeof PARAMETERIZED>;
export type EphemeralDisk = StructOf<typeof EPHEMERAL_DISK>;
export type DisconnectStrategy = StructOf<typeof DISCONNECT>;
export type ScalingPolicy = StructOf<typeof SCALING>;

export function defaultRestartPolicy(jobType: string): RestartPolicy {
  return defaultsOf(RESTART, jobType);
}

/** null for system and sysbatch: those allocations are never rescheduled onto another node. */
export function defaultReschedulePolicy(jobType: string): ReschedulePolicy | null {
  return jobType === 'service' || jobType === 'batch' ? defaultsOf(RESCHEDULE, jobType) : null;
}

export function defaultUpdateStrategy(): UpdateStrategy {
  return defaultsOf(UPDATE);
}

/** The all-zero strategy Nomad stores at job level when deployments do not apply (batch jobs). */
export function emptyUpdateStrategy(): UpdateStrategy {
  return zeroOf(UPDATE);
}

export function defaultMigrateStrategy(): MigrateStrategy {
  return defaultsOf(MIGRATE);
}

