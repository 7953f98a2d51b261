/** The server shape of a job: what GET /v1/job/:id returns; every field concrete, as its field table declares it. */
import type { StructOf } from '../wire/job/fields.js';
import { JOB, type JOB_UI, type JOB_VERSION_TAG } from '../wire/job/job.js';

export type JobType = (typeof JOB.Type.oneOf)[number];

export const JOB_MIN_PRIORITY = JOB.Priority.min;
export const JOB_MAX_PRIORITY = JOB.Priority.max;
export const JOB_DEFAULT_PRIORITY = JOB.Priority.default;

export type JobUI = StructOf<typeof JOB_UI>;
export type JobVersionTag = StructOf<typeof JOB_VERSION_TAG>;
export type Job = StructOf<typeof JOB>;
