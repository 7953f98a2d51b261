/** Table names of the scheduler state, and the key of a job in them, in one place for every state module. */
export const NAMESPACES_TABLE = 'namespaces';
export const JOBS_TABLE = 'jobs';

/** Namespace and ID joined by NUL, so a prefix scan stays in one namespace. */
export const jobKey = (namespace: string, id: string) => `${namespace}\u0000${id}`;
