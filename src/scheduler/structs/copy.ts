/** Deep copies of jobs, and the spec-change test that decides whether a register makes a new version. */
import type { Job } from './job.js';

/** A deep copy of JSON-shaped data; faster than structuredClone for the plain objects jobs are made of. */
export function copyValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyValue) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = copyValue(v);
  return out as T;
}

export function copyJob(job: Job): Job {
  return copyValue(job);
}

/**
 * Whether `b` differs from `a` in what the user specified. Status, bookkeeping indexes, the submit time,
 * the registering token and tags are set by the server, so a re-register of the same file must not see them.
 */
export function jobSpecChanged(a: Job, b: Job): boolean {
  return !deepEqual(specView(a), specView(b));
}

function specView(job: Job): Record<string, unknown> {
  const {
    Status: _status,
    StatusDescription: _statusDescription,
    Stable: _stable,
    Version: _version,
    SubmitTime: _submitTime,
    CreateIndex: _createIndex,
    ModifyIndex: _modifyIndex,
    JobModifyIndex: _jobModifyIndex,
    NomadTokenID: _nomadTokenID,
    VersionTag: _versionTag,
    ...spec
  } = job;
  // Scaling policies get their ID and indexes when stored; those are not part of what the user wrote.
  spec.TaskGroups = job.TaskGroups.map((g) =>
    g.Scaling ? { ...g, Scaling: { ...g.Scaling, ID: '', CreateIndex: 0, ModifyIndex: 0 } } : g,
  );
  return spec;
}

/** Structural equality of JSON data; key order does not matter, as it does not in Nomad's reflect.DeepEqual. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]));
}
