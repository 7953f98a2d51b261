export {
  parseJobspec,
  parseJobspecSync,
  buildJobSubmission,
  jobFileDir,
  type JobSubmission,
  type ParseJobspecOptions,
} from './parse.js';
export type { ApiJob, ApiObject } from './mapping.js';
export { JobspecError } from './errors.js';
export type { SourcePos } from '../shared/hcl/source.js';
export { parseGoDurationNs } from './durations.js';
export type { Value } from '../shared/hcl/syntax.js';
