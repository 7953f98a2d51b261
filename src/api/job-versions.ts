/** A job's versions: reverting to one, and tagging them (/v1/job/:id/revert, /v1/job/:id/versions/:tag/tag). */
import type { ApiClient } from './http/client.js';
import type { RegisterResponse } from './jobs.js';
import { jobPath } from './jobs.js';

export interface VersionTag {
  Name: string;
  Description: string;
  /** Unix nanoseconds */
  TaggedTime: number;
}

export interface JobVersion {
  Version: number;
  VersionTag: VersionTag | null;
}

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});

export async function jobVersionList(client: ApiClient, id: string, namespace?: string): Promise<JobVersion[]> {
  return (await client.scheduler<{ Versions: JobVersion[] }>('GET', jobPath(id, '/versions'), { query: ns(namespace) })).body.Versions;
}

export async function revertJob(client: ApiClient, id: string, version: number, namespace?: string): Promise<RegisterResponse> {
  return (await client.scheduler<RegisterResponse>('POST', jobPath(id, '/revert'), { query: ns(namespace), body: { JobID: id, JobVersion: version } })).body;
}

export async function tagJobVersion(client: ApiClient, id: string, name: string, opts: { version?: number; description: string; namespace?: string }): Promise<VersionTag> {
  const body = { ...(opts.version !== undefined ? { Version: opts.version } : {}), Description: opts.description };
  return (await client.scheduler<VersionTag>('POST', jobPath(id, `/versions/${encodeURIComponent(name)}/tag`), { query: ns(opts.namespace), body })).body;
}

export async function untagJobVersion(client: ApiClient, id: string, name: string, namespace?: string): Promise<void> {
  await client.scheduler('DELETE', jobPath(id, `/versions/${encodeURIComponent(name)}/tag`), { query: ns(namespace) });
}
