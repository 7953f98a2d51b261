/**
 * Restart, reschedule, update, migrate, periodic and parameterized policies, and their defaults by job type
 *. All durations are int64 nanoseconds as Nomad's JSON carries them.
 */

export const NS = {
  second: 1_000_000_000,
  minute: 60 * 1_000_000_000,
  hour: 3600 * 1_000_000_000,
} as const;

export interface RestartPolicy {
  Attempts: number;
  Interval: number;
  Delay: number;
  Mode: string;
  RenderTemplates: boolean;
}

export interface ReschedulePolicy {
  Attempts: number;
  Interval: number;
  Delay: number;
  DelayFunction: string;
  MaxDelay: number;
  Unlimited: boolean;
}

export interface UpdateStrategy {
  Stagger: number;
  MaxParallel: number;
  HealthCheck: string;
  MinHealthyTime: number;
  HealthyDeadline: number;
  ProgressDeadline: number;
  AutoRevert: boolean;
  AutoPromote: boolean;
  Canary: number;
}

export interface MigrateStrategy {
  MaxParallel: number;
  HealthCheck: string;
  MinHealthyTime: number;
  HealthyDeadline: number;
}

export interface PeriodicConfig {
  Enabled: boolean;
  Spec: string;
  Specs: string[];
  SpecType: string;
  ProhibitOverlap: boolean;
  TimeZone: string;
}

export interface ParameterizedJobConfig {
  Payload: string;
  MetaRequired: string[] | null;
  MetaOptional: string[] | null;
}

export interface EphemeralDisk {
  Sticky: boolean;
  SizeMB: number;
  Migrate: boolean;
}

export interface DisconnectStrategy {
  LostAfter: number;
  StopOnClientAfter: number | null;
  Replace: boolean | null;
  Reconcile: string;
}

export interface ScalingPolicy {
  ID: string;
  Type: string;
  Target: Record<string, string> | null;
  Policy: Record<string, unknown> | null;
  Min: number;
  Max: number;
  Enabled: boolean;
  CreateIndex: number;
  ModifyIndex: number;
}

export const RESTART_MODES = ['fail', 'delay'] as const;
export const DELAY_FUNCTIONS = ['constant', 'exponential', 'fibonacci'] as const;
export const UPDATE_HEALTH_CHECKS = ['checks', 'task_states', 'manual'] as const;
export const PAYLOAD_MODES = ['optional', 'required', 'forbidden'] as const;
export const DISCONNECT_RECONCILE = ['best_score', 'keep_original', 'keep_replacement', 'longest_running'] as const;

/** A restart interval shorter than this cannot be tracked meaningfully by the client. */
export const RESTART_MIN_INTERVAL = 5 * NS.second;
export const RESCHEDULE_MIN_DELAY = 5 * NS.second;
export const RESCHEDULE_MIN_INTERVAL = 15 * NS.second;

export function defaultRestartPolicy(jobType: string): RestartPolicy {
  if (jobType === 'batch' || jobType === 'sysbatch') {
    return { Attempts: 3, Interval: 24 * NS.hour, Delay: 15 * NS.second, Mode: 'fail', RenderTemplates: false };
  }
  return { Attempts: 2, Interval: 30 * NS.minute, Delay: 15 * NS.second, Mode: 'fail', RenderTemplates: false };
}

/** null for system and sysbatch: those allocations are never rescheduled onto another node. */
export function defaultReschedulePolicy(jobType: string): ReschedulePolicy | null {
  if (jobType === 'service') {
    return {
      Attempts: 0,
      Interval: 0,
      Delay: 30 * NS.second,
      DelayFunction: 'exponential',
      MaxDelay: NS.hour,
      Unlimited: true,
    };
  }
  if (jobType === 'batch') {
    return { Attempts: 1, Interval: 24 * NS.hour, Delay: 5 * NS.second, DelayFunction: 'constant', MaxDelay: 0, Unlimited: false };
  }
  return null;
}

export function defaultUpdateStrategy(): UpdateStrategy {
  return {
    Stagger: 30 * NS.second,
    MaxParallel: 1,
    HealthCheck: 'checks',
    MinHealthyTime: 10 * NS.second,
    HealthyDeadline: 5 * NS.minute,
    ProgressDeadline: 10 * NS.minute,
    AutoRevert: false,
    AutoPromote: false,
    Canary: 0,
  };
}

/** The all-zero strategy Nomad stores at job level when deployments do not apply (batch jobs). */
export function emptyUpdateStrategy(): UpdateStrategy {
  return {
    Stagger: 0,
    MaxParallel: 0,
    HealthCheck: '',
    MinHealthyTime: 0,
    HealthyDeadline: 0,
    ProgressDeadline: 0,
    AutoRevert: false,
    AutoPromote: false,
    Canary: 0,
  };
}

export function defaultMigrateStrategy(): MigrateStrategy {
  return { MaxParallel: 1, HealthCheck: 'checks', MinHealthyTime: 10 * NS.second, HealthyDeadline: 5 * NS.minute };
}

export function defaultEphemeralDisk(): EphemeralDisk {
  return { Sticky: false, SizeMB: 300, Migrate: false };
}
