/** Table names of the scheduler state, and the key of a job in them, in one place for every state module. */
export const NAMESPACES_TABLE = 'namespaces';
export const JOBS_TABLE = 'jobs';

export const JOB_VERSIONS_TABLE = 'job-versions';
/** A job's scaling events, by group, in one record per job. */
export const SCALING_EVENTS_TABLE = 'scaling-events';

/** Namespace and ID joined by NUL, so a prefix scan stays in one namespace. */
export const jobKey = (namespace: string, id: string) => `${namespace}\u0000${id}`;

/** A job version's key: versions sort numerically within a job because the number is zero-padded. */
export const versionKey = (namespace: string, id: string, version: number) => `${jobKey(namespace, id)}\u0000${String(version).padStart(10, '0')}`;
