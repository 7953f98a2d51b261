/**
 * The restart, reschedule, update, migrate, periodic, parameterized, ephemeral disk, disconnect and scaling
 * blocks of a job, with Nomad's defaults (by job type where Nomad's depend on it).
 */
import { field, NS, perJobType } from './fields.js';

export const RESTART_MODES = ['fail', 'delay'] as const;
export const DELAY_FUNCTIONS = ['constant', 'exponential', 'fibonacci'] as const;
export const UPDATE_HEALTH_CHECKS = ['checks', 'task_states', 'manual'] as const;
export const PAYLOAD_MODES = ['optional', 'required', 'forbidden'] as const;
export const DISCONNECT_RECONCILE = ['best_score', 'keep_original', 'keep_replacement', 'longest_running'] as const;

const batchLike = <V>(batch: V, otherwise: V) => perJobType({ batch, sysbatch: batch }, otherwise);

export const RESTART = {
  Attempts: field('int', { hcl: 'attempts', default: batchLike(3, 2) }),
  // Shorter than the minimum cannot be tracked meaningfully by the client.
  Interval: field('duration', { hcl: 'interval', default: batchLike(24 * NS.hour, 30 * NS.minute), min: 5 * NS.second }),
  Delay: field('duration', { hcl: 'delay', default: 15 * NS.second }),
  Mode: field('string', { hcl: 'mode', default: 'fail', oneOf: RESTART_MODES }),
  RenderTemplates: field('bool', { hcl: 'render_templates' }),
} as const;

/** The defaults are the service job's except where batch's are named; other types are never rescheduled. */
export const RESCHEDULE = {
  Attempts: field('int', { hcl: 'attempts', default: perJobType({ batch: 1 }, 0) }),
  Interval: field('duration', { hcl: 'interval', default: perJobType({ batch: 24 * NS.hour }, 0), min: 15 * NS.second }),
  Delay: field('duration', { hcl: 'delay', default: perJobType({ batch: 5 * NS.second }, 30 * NS.second), min: 5 * NS.second }),
  DelayFunction: field('string', { hcl: 'delay_function', default: perJobType({ batch: 'constant' }, 'exponential'), oneOf: DELAY_FUNCTIONS }),
  MaxDelay: field('duration', { hcl: 'max_delay', default: perJobType({ batch: 0 }, NS.hour) }),
  Unlimited: field('bool', { hcl: 'unlimited', default: perJobType({ batch: false }, true) }),
} as const;

export const UPDATE = {
  Stagger: field('duration', { hcl: 'stagger', default: 30 * NS.second }),
  MaxParallel: field('int', { hcl: 'max_parallel', default: 1 }),
  HealthCheck: field('string', { hcl: 'health_check', default: 'checks', oneOf: UPDATE_HEALTH_CHECKS }),
  MinHealthyTime: field('duration', { hcl: 'min_healthy_time', default: 10 * NS.second }),
  HealthyDeadline: field('duration', { hcl: 'healthy_deadline', default: 5 * NS.minute }),
  ProgressDeadline: field('duration', { hcl: 'progress_deadline', default: 10 * NS.minute }),
  AutoRevert: field('bool', { hcl: 'auto_revert' }),
  AutoPromote: field('bool', { hcl: 'auto_promote' }),
  Canary: field('int', { hcl: 'canary' }),
} as const;

export const MIGRATE = {
  MaxParallel: field('int', { hcl: 'max_parallel', default: 1 }),
  HealthCheck: field('string', { hcl: 'health_check', default: 'checks' }),
  MinHealthyTime: field('duration', { hcl: 'min_healthy_time', default: 10 * NS.second }),
  HealthyDeadline: field('duration', { hcl: 'healthy_deadline', default: 5 * NS.minute }),
} as const;

export const PERIODIC = {
  Enabled: field('bool', { hcl: 'enabled', default: true }),
  Spec: field('string', { hcl: 'cron' }),
  Specs: field('strings', { hcl: 'crons', default: [] }),
  // Job files cannot choose it: cron is the only type.
  SpecType: field('string', { default: 'cron' }),
  ProhibitOverlap: field('bool', { hcl: 'prohibit_overlap' }),
  TimeZone: field('string', { hcl: 'time_zone', default: 'UTC' }),
} as const;

export const PARAMETERIZED = {
  Payload: field('string', { hcl: 'payload', default: 'optional', oneOf: PAYLOAD_MODES }),
  MetaRequired: field('strings', { hcl: 'meta_required', nullable: true }),
  MetaOptional: field('strings', { hcl: 'meta_optional', nullable: true }),
} as const;

export const EPHEMERAL_DISK = {
  Sticky: field('bool', { hcl: 'sticky' }),
  SizeMB: field('int', { hcl: 'size', default: 300 }),
  Migrate: field('bool', { hcl: 'migrate' }),
} as const;

export const DISCONNECT = {
  LostAfter: field('duration', { hcl: 'lost_after', min: 0 }),
  StopOnClientAfter: field('duration', { hcl: 'stop_on_client_after', nullable: true }),
  Replace: field('bool', { hcl: 'replace', default: true, nullable: true }),
  Reconcile: field('string', { hcl: 'reconcile', default: 'best_score', oneOf: DISCONNECT_RECONCILE }),
} as const;

/** The group's scaling block; the policy body is free-form, a block of its own in job files. */
export const SCALING = {
  ID: field('string'),
  Type: field('string', { hcl: 'type', default: 'horizontal' }),
  Target: field('stringMap', { nullable: true }),
  Policy: field('object', { nullable: true }),
  Min: field('int', { hcl: 'min' }),
  Max: field('int', { hcl: 'max' }),
  Enabled: field('bool', { hcl: 'enabled', default: true }),
  CreateIndex: field('int'),
  ModifyIndex: field('int'),
} as const;
