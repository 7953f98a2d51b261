/**
 * The input shape of a job, derived from its field table: validateJobInput checks types against it and
 * canonicalizeJob reads fields through it. Keys match case-insensitively because Nomad decodes request
 * bodies with Go's encoding/json, which does, and job files in the wild rely on it.
 */
import { schemaOf } from '../wire/job/fields.js';
import { JOB } from '../wire/job/job.js';

export const JOB_SCHEMA = schemaOf(JOB);

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
