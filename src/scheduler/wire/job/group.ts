/** A task group, and the volumes it asks for by the name its tasks mount them under. */
import { field } from './fields.js';
import { AFFINITY, CONSTRAINT, SPREAD } from './placement.js';
import { DISCONNECT, EPHEMERAL_DISK, MIGRATE, RESCHEDULE, RESTART, SCALING, UPDATE } from './policies.js';
import { NETWORK } from './resources.js';
import { SERVICE } from './service.js';
import { TASK } from './task.js';

export const MOUNT_OPTIONS = {
  FSType: field('string', { hcl: 'fs_type' }),
  MountFlags: field('strings', { hcl: 'mount_flags', nullable: true }),
} as const;

/** A job file names a volume by its block's label, which is also its name when the block sets none. */
export const VOLUME_REQUEST = {
  Name: field('string'),
  Type: field('string', { hcl: 'type' }),
  Source: field('string', { hcl: 'source' }),
  ReadOnly: field('bool', { hcl: 'read_only' }),
  Sticky: field('bool', { hcl: 'sticky' }),
  AccessMode: field('string', { hcl: 'access_mode' }),
  AttachmentMode: field('string', { hcl: 'attachment_mode' }),
  PerAlloc: field('bool', { hcl: 'per_alloc' }),
  MountOptions: field({ obj: MOUNT_OPTIONS }, { nullable: true }),
} as const;

/**
 * A job file names a group by its block's label. Unset, its count is its scaling block's minimum (else 1),
 * and its update, migrate and reschedule blocks are the job's merged over Nomad's defaults for the job type.
 */
export const GROUP = {
  Name: field('string'),
  Count: field('int', { hcl: 'count', default: 1 }),
  Update: field({ obj: UPDATE }, { nullable: true }),
  Migrate: field({ obj: MIGRATE }, { nullable: true }),
  Constraints: field({ list: CONSTRAINT }, { nullable: true }),
  Scaling: field({ obj: SCALING }, { nullable: true }),
  RestartPolicy: field({ obj: RESTART }),
  Disconnect: field({ obj: DISCONNECT }, { nullable: true }),
  Tasks: field({ list: TASK }),
  EphemeralDisk: field({ obj: EPHEMERAL_DISK }),
  // Also a `meta {}` block in job files.
  Meta: field('stringMap', { hcl: 'meta', nullable: true }),
  ReschedulePolicy: field({ obj: RESCHEDULE }, { nullable: true }),
  Affinities: field({ list: AFFINITY }, { nullable: true }),
  Spreads: field({ list: SPREAD }, { nullable: true }),
  Networks: field({ list: NETWORK }, { nullable: true }),
  Consul: field('object', { nullable: true }),
  Services: field({ list: SERVICE }, { nullable: true }),
  Volumes: field({ map: VOLUME_REQUEST }, { nullable: true }),
  ShutdownDelay: field('duration', { hcl: 'shutdown_delay', nullable: true }),
  StopAfterClientDisconnect: field('duration', { hcl: 'stop_after_client_disconnect', nullable: true }),
  MaxClientDisconnect: field('duration', { hcl: 'max_client_disconnect', nullable: true }),
  PreventRescheduleOnLost: field('bool', { hcl: 'prevent_reschedule_on_lost' }),
  MaxRunDuration: field('duration', { hcl: 'max_run_duration', nullable: true }),
} as const;
