export {
  parseJobspec,
  parseJobspecSync,
  buildJobSubmission,
  jobFileDir,
  type JobSubmission,
  type ParseJobspecOptions,
} from './parse.js';
export type { ApiJob, ApiObject } from './mapping.js';
export { JobspecError, type SourcePos } from './errors.js';
export { parseGoDurationNs } from './durations.js';
export type { Value } from './expressions.js';
