/** The job model: types, canonicalization, validation and copying (Nomad's Canonicalize → Validate → Copy). */
export * from './constraint.js';
export * from './resources.js';
export * from './policies.js';
export * from './service.js';
export * from './task.js';
export * from './task-group.js';
export * from './job.js';
export { canonicalizeJob, type Input } from './canonicalize.js';
export { validateJob, validateJobInput, validateConstraint, formatValidationErrors, jobWarnings } from './validate.js';
export { copyJob, copyValue, jobSpecChanged, deepEqual } from './copy.js';
export { parseDurationNs, formatDurationNs } from './duration.js';
export { JOB_SCHEMA, lookup } from './schema.js';
