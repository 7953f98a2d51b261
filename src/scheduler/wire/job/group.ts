/** The volumes a task group asks for, by the name its tasks mount them under. */
import { field } from './fields.js';

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
