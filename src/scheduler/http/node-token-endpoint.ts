/**
 * Tokens for tasks with a `vault` block, which a node asks for as it starts them (Nomad's
 * Node.DeriveVaultToken):
 *
 *   POST /v1/node/:node_id/derive-token   (node secret) {AllocID, Tasks: [name]}
 *                                         → {Tasks: {name: token}, LeaseDurations: {name: seconds}, Index}
 *
 * Each token is an orphan with the task's policies, renewable, with Nomad's token role values, and the
 * allocation's tokens are revoked once it is finished on its node or collected.
 */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import type { Logger } from '../../shared/log.js';
import type { TokenService } from '../../secrets/token/token-service.js';
import { allocJob, getAlloc } from '../state/allocs.js';
import { finishedTaskTokens, forgetTaskTokens, recordTaskTokens } from '../state/task-tokens.js';
import { allocTerminal } from '../structs/allocation.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import type { Store } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { TaskGroup } from '../structs/task-group.js';

/** Vault's period for the token role Nomad's docs set up (`nomad-cluster`): 72h. */
const TASK_TOKEN_TTL_SECONDS = 72 * 3600;

async function revokeAccessors(tokens: TokenService, accessors: string[]): Promise<void> {
  for (const accessor of accessors) {
    const entry = tokens.lookupByAccessor(accessor);
    if (entry) await tokens.revoke(entry.id);
  }
}

/** Revokes the tokens of every allocation that is finished or gone, and forgets them. */
export async function revokeFinishedTaskTokens(services: { store: Store; tokens: TokenService; log: Logger }): Promise<void> {
  const finished = finishedTaskTokens(services.store);
  for (const record of finished) await revokeAccessors(services.tokens, Object.values(record.tasks));
  await forgetTaskTokens(
    services.store,
    finished.map((r) => r.allocId),
  );
  if (finished.length > 0) services.log.debug(`revoked the task tokens of ${finished.length} finished allocation(s)`);
}

/** The body's AllocID and Tasks, as the node routes that act for an allocation's tasks take them. */
export function allocTasksRequest(body: Record<string, unknown>, what: string): { allocId: string; names: string[] } {
  if (typeof body.AllocID !== 'string' || body.AllocID === '') throw new UserError('field "AllocID" must be the ID of an allocation');
  const tasks = body.Tasks;
  if (!Array.isArray(tasks) || tasks.length === 0 || !tasks.every((t) => typeof t === 'string' && t !== '')) {
    throw new UserError(`field "Tasks" must list the names of the tasks that need ${what}`);
  }
  return { allocId: body.AllocID, names: [...new Set(tasks as string[])] };
}

/**
 * The allocation a node asks for, with its job and group: a node speaks only for the allocations placed
 * on it, as long as they are meant to run.
 */
export function placedAllocation(store: Store, allocId: string, nodeId: string, what: string): { alloc: Allocation; job: Job; group: TaskGroup } {
  const alloc = getAlloc(store, allocId);
  if (!alloc) throw new NotFound(`allocation ${allocId} not found`);
  if (alloc.NodeID !== nodeId) throw new PermissionDenied(`allocation ${alloc.ID} is not placed on node ${nodeId}`);
  if (allocTerminal(alloc)) throw new PermissionDenied(`allocation ${alloc.ID} is terminal: its tasks get no ${what}`);
  const job = allocJob(store, alloc);
  const group = job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!job || !group) throw new NotFound(`the job of allocation ${alloc.ID} is not known`);
  return { alloc, job, group };
}

export const nodeTokenRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/node/:node_id/derive-token',
    acl: { nodeSecret: true },
    synopsis: "Create the tokens of an allocation's tasks that have a vault block, for the node that runs it.",
    handler: async (req) => {
      const { allocId, names } = allocTasksRequest(bodyObject(req, 'object with AllocID and Tasks', true), 'a token');
      const { store, tokens, mounts } = req.services;
      const { alloc, job, group } = placedAllocation(store, allocId, req.params.node_id, 'token');
      const tokenMount = mounts.get('auth/token/');
      const created: Record<string, { secret: string; accessor: string; ttl: number }> = {};
      for (const name of names) {
        const task = group.Tasks.find((t) => t.Name === name);
        if (!task) throw new UserError(`task "${name}" is not in group "${group.Name}" of job "${job.ID}"`);
        if (!task.Vault) throw new PermissionDenied(`task "${name}" has no vault block: it gets no token`);
        const { secret, entry } = await tokens.create({
          policies: task.Vault.Policies ?? [],
          ttl: TASK_TOKEN_TTL_SECONDS,
          renewable: true,
          orphan: true,
          meta: { AllocationID: alloc.ID, JobID: job.ID, Namespace: alloc.Namespace, NodeID: alloc.NodeID, Task: name },
          displayName: `nomad-task-${job.ID}-${name}`,
          path: 'auth/token/create-orphan',
          mountAccessor: tokenMount?.accessor ?? '',
        });
        created[name] = { secret, accessor: entry.accessor, ttl: entry.ttl };
      }
      const replaced = await recordTaskTokens(store, alloc.ID, Object.fromEntries(Object.entries(created).map(([n, c]) => [n, c.accessor])));
      // A task started again gets a new token: the one it had before is nobody's now.
      await revokeAccessors(tokens, replaced);
      return {
        body: {
          Tasks: Object.fromEntries(Object.entries(created).map(([n, c]) => [n, c.secret])),
          LeaseDurations: Object.fromEntries(Object.entries(created).map(([n, c]) => [n, c.ttl])),
          Index: store.index(),
        },
        index: store.index(),
      };
    },
  }),
];
