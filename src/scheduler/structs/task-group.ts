/** A task group: the unit of placement; one allocation runs all of a group's tasks together. */
import type { StructOf } from '../wire/job/fields.js';
import type { GROUP, VOLUME_REQUEST } from '../wire/job/group.js';

export type VolumeRequest = StructOf<typeof VOLUME_REQUEST>;
export type TaskGroup = StructOf<typeof GROUP>;
