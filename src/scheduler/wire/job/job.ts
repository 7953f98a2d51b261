/** The job, and its own blocks: its UI links and its version tag. */
import { field } from './fields.js';
import { GROUP } from './group.js';
import { AFFINITY, CONSTRAINT, SPREAD } from './placement.js';
import { MIGRATE, PARAMETERIZED, PERIODIC, RESCHEDULE, UPDATE } from './policies.js';

const JOB_TYPES = ['service', 'batch', 'system', 'sysbatch'] as const;

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

/** The server shape of a job: what GET /v1/job/:id returns, every field concrete. */
export const JOB = {
  Region: field('string', { hcl: 'region', default: 'global' }),
  Namespace: field('string', { hcl: 'namespace', default: 'default' }),
  ID: field('string', { hcl: 'id' }),
  ParentID: field('string'),
  Name: field('string', { hcl: 'name' }),
  Type: field('string', { hcl: 'type', default: 'service', oneOf: JOB_TYPES }),
  Priority: field('int', { hcl: 'priority', default: 50, min: 1, max: 100 }),
  AllAtOnce: field('bool', { hcl: 'all_at_once' }),
  Datacenters: field('strings', { hcl: 'datacenters', default: ['*'] }),
  NodePool: field('string', { hcl: 'node_pool', default: 'default' }),
  Constraints: field({ list: CONSTRAINT }, { nullable: true }),
  Affinities: field({ list: AFFINITY }, { nullable: true }),
  Spreads: field({ list: SPREAD }, { nullable: true }),
  TaskGroups: field({ list: GROUP }),
  // At job level only Stagger and MaxParallel carry meaning; groups hold the full strategy.
  Update: field({ obj: UPDATE }),
  Multiregion: field('object', { nullable: true }),
  Periodic: field({ obj: PERIODIC }, { nullable: true }),
  ParameterizedJob: field({ obj: PARAMETERIZED }, { nullable: true }),
  Dispatched: field('bool'),
  DispatchIdempotencyToken: field('string'),
  // Base64, as Go encodes []byte.
  Payload: field('string', { nullable: true }),
  // Also a `meta {}` block in job files.
  Meta: field('stringMap', { hcl: 'meta', nullable: true }),
  ConsulNamespace: field('string'),
  VaultNamespace: field('string'),
  NomadTokenID: field('string'),
  Status: field('string'),
  StatusDescription: field('string'),
  Stable: field('bool'),
  Version: field('int'),
  // Unix nanoseconds.
  SubmitTime: field('int'),
  CreateIndex: field('int'),
  ModifyIndex: field('int'),
  JobModifyIndex: field('int'),
  Stop: field('bool'),
  UI: field({ obj: JOB_UI }, { nullable: true }),
  VersionTag: field({ obj: JOB_VERSION_TAG }, { nullable: true }),
  // Job-level defaults, merged into each group.
  Reschedule: field({ obj: RESCHEDULE }, { inputOnly: true }),
  Migrate: field({ obj: MIGRATE }, { inputOnly: true }),
  // Removed upstream but still present in job files; accepted and dropped.
  VaultToken: field('string', { hcl: 'vault_token', inputOnly: true }),
  ConsulToken: field('string', { hcl: 'consul_token', inputOnly: true }),
} as const;
