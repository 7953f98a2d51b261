/** What `alloc logs` and `alloc fs` share: the tail sizes, `-job`, `-verbose` and the ALLOC argument. */
import type { ArgSpec, FlagSpec } from '../../define.js';

export const TAIL_SIZE_FLAGS: FlagSpec[] = [
  { name: 'n', type: 'int', description: 'With -tail: lines from the end.' },
  { name: 'c', type: 'int', description: 'With -tail: bytes from the end.' },
];

export const BY_JOB_FLAGS: FlagSpec[] = [
  { name: 'job', type: 'bool', description: 'ALLOC is a job: use its newest running allocation.' },
  { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
];

export const ALLOC_ARG: ArgSpec = { name: 'alloc', description: 'An allocation ID or prefix (a job ID with -job).', required: true, complete: 'alloc' };
