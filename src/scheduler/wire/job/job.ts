/** The job's own blocks: its UI links and its version tag. */
import { field } from './fields.js';

/** A job file's `url` reaches Url as "URL", the key Nomad's jobspec writes; keys are read case-insensitively. */
export const UI_LINK = {
  Label: field('string', { hcl: 'label' }),
  Url: field('string'),
} as const;

export const JOB_UI = {
  Description: field('string', { hcl: 'description' }),
  Links: field({ list: UI_LINK }, { nullable: true }),
} as const;

/** Set through the version tagging endpoint, never by a job file. */
export const JOB_VERSION_TAG = {
  Name: field('string'),
  Description: field('string'),
  // Unix nanoseconds.
  TaggedTime: field('int'),
} as const;
