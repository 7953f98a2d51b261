/** Deployment ID prefixes, for the deployment commands. */
import type { ApiClient } from '../../api/http/client.js';
import { listDeployments, type Deployment } from '../../api/deployments.js';
import { deploymentListTable } from '../output/deployment.js';
import { newestFirst } from '../output/nomad.js';
import { resolveByPrefix } from '../prefix.js';

/** The deployment a user means by an ID or a unique ID prefix (an exact ID wins), in the client's namespace. */
export function resolveDeployment(client: ApiClient, typed: string, length: number): Promise<Deployment> {
  return resolveByPrefix<Deployment>(
    {
      plural: 'deployments',
      uuid: true,
      notFound: (prefix) => `Error retrieving deployment: Deployment ID "${prefix}" matched no deployments`,
      list: async (prefix) => newestFirst((await listDeployments(client, { prefix })).deployments),
      idOf: (d) => d.ID,
      table: (deployments) => deploymentListTable(deployments, length),
    },
    typed,
  );
}
