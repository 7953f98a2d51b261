/** The cluster's servers, as the secrets API lists them. */
import type { HaNode } from '../cluster/member-views.js';
import type { ApiClient } from './http/client.js';

/** GET /v1/sys/ha-status: the servers, the active node first (read at the top level, as Vault's client does). */
export async function haStatus(client: ApiClient): Promise<HaNode[]> {
  const answer = await client.secrets('GET', 'sys/ha-status');
  return Array.isArray(answer?.nodes) ? (answer.nodes as HaNode[]) : [];
}
