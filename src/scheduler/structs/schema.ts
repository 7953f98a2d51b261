/**
 * The input shape of a job, declared once: validateJobInput checks types against it and canonicalizeJob
 * reads fields through it; the structs that have a field table take their entry from it. Keys match
 * case-insensitively because Nomad decodes request bodies with Go's encoding/json, which does, and job
 * files in the wild rely on it.
 */
import { schemaOf, type Schema } from '../wire/job/fields.js';
import { GROUP as GROUP_FIELDS } from '../wire/job/group.js';
import { JOB_UI, JOB_VERSION_TAG } from '../wire/job/job.js';
import { AFFINITY as AFFINITY_FIELDS, CONSTRAINT as CONSTRAINT_FIELDS, SPREAD as SPREAD_FIELDS } from '../wire/job/placement.js';
import {
  MIGRATE as MIGRATE_FIELDS,
  PARAMETERIZED,
  PERIODIC,
  RESCHEDULE as RESCHEDULE_FIELDS,
  UPDATE as UPDATE_FIELDS,
} from '../wire/job/policies.js';

const CONSTRAINT = schemaOf(CONSTRAINT_FIELDS);
const AFFINITY = schemaOf(AFFINITY_FIELDS);
const SPREAD = schemaOf(SPREAD_FIELDS);
const RESCHEDULE = schemaOf(RESCHEDULE_FIELDS);
const UPDATE = schemaOf(UPDATE_FIELDS);
const MIGRATE = schemaOf(MIGRATE_FIELDS);
const GROUP = schemaOf(GROUP_FIELDS);

export const JOB_SCHEMA: Schema = {
  Region: 'string',
  Namespace: 'string',
  ID: 'string',
  ParentID: 'string',
  Name: 'string',
  Type: 'string',
  Priority: 'int',
  AllAtOnce: 'bool',
  Datacenters: 'strings',
  NodePool: 'string',
  Constraints: { list: CONSTRAINT },
  Affinities: { list: AFFINITY },
  Spreads: { list: SPREAD },
  TaskGroups: { list: GROUP },
  Update: { obj: UPDATE },
  Multiregion: 'object',
  Periodic: { obj: schemaOf(PERIODIC) },
  ParameterizedJob: { obj: schemaOf(PARAMETERIZED) },
  Dispatched: 'bool',
  DispatchIdempotencyToken: 'string',
  Payload: 'string',
  Meta: 'stringMap',
  ConsulNamespace: 'string',
  VaultNamespace: 'string',
  NomadTokenID: 'string',
  Status: 'string',
  StatusDescription: 'string',
  Stable: 'bool',
  Version: 'int',
  SubmitTime: 'int',
  CreateIndex: 'int',
  ModifyIndex: 'int',
  JobModifyIndex: 'int',
  Stop: 'bool',
  UI: { obj: schemaOf(JOB_UI) },
  VersionTag: { obj: schemaOf(JOB_VERSION_TAG) },
  // Input-only job-level defaults, merged into each group.
  Reschedule: { obj: RESCHEDULE },
  Migrate: { obj: MIGRATE },
  // Removed upstream but still present in job files; accepted and dropped.
  VaultToken: 'string',
  ConsulToken: 'string',
};

/** Finds `name` in `obj` the way Go's decoder does: exact key first, then any key equal ignoring case. */
export function lookup(obj: Record<string, unknown>, name: string): unknown {
  // An exact key holding undefined (left by `{...job, ID: maybe}`) must not hide `id` spelled otherwise.
  if (obj[name] !== undefined && Object.prototype.hasOwnProperty.call(obj, name)) return obj[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() === lower && obj[key] !== undefined) return obj[key];
  }
  return undefined;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
