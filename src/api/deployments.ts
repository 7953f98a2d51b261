/** Deployments (scheduler API): typed calls for the CLI and the tests. */
import type { ApiClient } from './http/client.js';
import type { AllocStub } from './allocs.js';

/** The wire shape is the server's own record: one definition for both sides. */
export type { Deployment, DeploymentGroupState } from '../scheduler/structs/deployment.js';
import type { Deployment } from '../scheduler/structs/deployment.js';

/** What fail, pause and promote answer (Nomad's DeploymentUpdateResponse). */
export interface DeploymentUpdateResponse {
  EvalID: string;
  EvalCreateIndex: number;
  DeploymentModifyIndex: number;
  /** the job version a failed deployment was rolled back to (auto_revert) */
  RevertedJobVersion?: number;
  Index: number;
}

export interface DeploymentListOptions {
  prefix?: string;
  filter?: string;
  perPage?: number;
  nextToken?: string;
  namespace?: string;
}

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});
const path = (id: string, verb = '') => `/v1/deployment/${verb ? `${verb}/` : ''}${encodeURIComponent(id)}`;

/** Deployments, oldest first as the server lists them; `nextToken` when there is a further page. */
export async function listDeployments(client: ApiClient, opts: DeploymentListOptions = {}): Promise<{ deployments: Deployment[]; nextToken?: string }> {
  const query: Record<string, string | number> = { ...ns(opts.namespace) };
  if (opts.prefix) query.prefix = opts.prefix;
  if (opts.filter) query.filter = opts.filter;
  if (opts.perPage) query.per_page = opts.perPage;
  if (opts.nextToken) query.next_token = opts.nextToken;
  const { body, nextToken } = await client.scheduler<Deployment[]>('GET', '/v1/deployments', { query });
  return { deployments: body ?? [], nextToken: nextToken || undefined };
}

export interface BlockingOptions {
  /** answer only once the deployment's modify index passes this (a blocking query) */
  index?: number;
  /** how long the server may hold a blocking query: a Go duration such as "30s" */
  wait?: string;
  namespace?: string;
}

/** A deployment and the index it was read at; with `index`, a blocking query. */
export async function getDeployment(client: Pick<ApiClient, 'scheduler'>, id: string, opts: BlockingOptions = {}): Promise<{ deployment: Deployment; index: number }> {
  const query: Record<string, string | number> = { ...ns(opts.namespace) };
  if (opts.index) {
    query.index = opts.index;
    if (opts.wait) query.wait = opts.wait;
  }
  const { body, index } = await client.scheduler<Deployment>('GET', path(id), { query });
  return { deployment: body, index };
}

export async function deploymentAllocations(client: Pick<ApiClient, 'scheduler'>, id: string, namespace?: string): Promise<AllocStub[]> {
  return (await client.scheduler<AllocStub[]>('GET', path(id, 'allocations'), { query: ns(namespace) })).body ?? [];
}

export async function failDeployment(client: ApiClient, id: string, namespace?: string): Promise<DeploymentUpdateResponse> {
  return (await client.scheduler<DeploymentUpdateResponse>('POST', path(id, 'fail'), { query: ns(namespace), body: { DeploymentID: id } })).body;
}

/** Pauses (`pause` true) or resumes a deployment. */
export async function pauseDeployment(client: ApiClient, id: string, pause: boolean, namespace?: string): Promise<DeploymentUpdateResponse> {
  return (await client.scheduler<DeploymentUpdateResponse>('POST', path(id, 'pause'), { query: ns(namespace), body: { DeploymentID: id, Pause: pause } })).body;
}

/** Promotes the canaries of every group, or of the named groups. */
export async function promoteDeployment(client: ApiClient, id: string, groups: string[] = [], namespace?: string): Promise<DeploymentUpdateResponse> {
  const body = groups.length > 0 ? { DeploymentID: id, All: false, Groups: groups } : { DeploymentID: id, All: true };
  return (await client.scheduler<DeploymentUpdateResponse>('POST', path(id, 'promote'), { query: ns(namespace), body })).body;
}

/** A job's deployments, newest first; `all` includes those of earlier jobs registered under the same ID. */
export async function jobDeployments(
  client: Pick<ApiClient, 'scheduler'>,
  jobId: string,
  opts: { all?: boolean; namespace?: string; index?: number; wait?: string } = {},
): Promise<{ deployments: Deployment[]; index: number }> {
  const query: Record<string, string | number | boolean> = { ...ns(opts.namespace) };
  if (opts.all) query.all = true;
  if (opts.index) {
    query.index = opts.index;
    if (opts.wait) query.wait = opts.wait;
  }
  const { body, index } = await client.scheduler<Deployment[]>('GET', `/v1/job/${encodeURIComponent(jobId)}/deployments`, { query });
  return { deployments: body ?? [], index };
}

/** The job's latest deployment; null when it has none. */
export async function jobLatestDeployment(client: Pick<ApiClient, 'scheduler'>, jobId: string, namespace?: string): Promise<Deployment | null> {
  return (await client.scheduler<Deployment | null>('GET', `/v1/job/${encodeURIComponent(jobId)}/deployment`, { query: ns(namespace) })).body ?? null;
}
