/**
 * Structured job diffs, as Nomad computes them for `job plan` and the versions endpoint, and their text
 * form. The pieces live in ./diff/.
 */
export type { DiffType, FieldDiff, ObjectDiff, TaskDiff, TaskGroupDiff, JobDiff } from './diff/types.js';
export { diffJobs, groupDiff, taskDiff } from './diff/job.js';
export { formatJobDiff, goQuote, type RenderOptions } from './diff/render.js';
export { annotateDiff, type GroupUpdates } from './diff/annotate.js';
