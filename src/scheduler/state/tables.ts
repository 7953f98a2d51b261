/** Table names of the scheduler state, and the key of a job in them, in one place for every state module. */
export const NAMESPACES_TABLE = 'namespaces';
export const JOBS_TABLE = 'jobs';

export const JOB_VERSIONS_TABLE = 'job-versions';
/** A job's scaling events, by group, in one record per job. */
export const SCALING_EVENTS_TABLE = 'scaling-events';

/**
 * The separator of a key's parts: NUL sorts before every other character, so a prefix scan of `a\0` holds
 * the entries of `a` only, never those of `ab`.
 */
export const SEP = '\u0000';

/** Namespace and ID joined by NUL, so a prefix scan stays in one namespace. */
export const jobKey = (namespace: string, id: string) => `${namespace}${SEP}${id}`;

/** A job version's key: versions sort numerically within a job because the number is zero-padded. */
export const versionKey = (namespace: string, id: string, version: number) => `${jobKey(namespace, id)}${SEP}${String(version).padStart(10, '0')}`;
