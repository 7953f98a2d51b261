/** Allocation ID prefixes, and the checks the alloc lifecycle commands share. */
import type { ApiClient } from '../../api/http/client.js';
import { listAllocs, type Allocation, type AllocStub } from '../../api/allocs.js';
import { ApiError } from '../../shared/errors.js';
import { CommandFailure } from '../command-failure.js';
import { formatTable } from '../output/format.js';
import { allocListTable } from '../output/nomad.js';
import { resolveByPrefix } from '../prefix.js';

export function resolveAlloc(client: ApiClient, typed: string, verbose: boolean): Promise<AllocStub> {
  return resolveByPrefix<AllocStub>(
    {
      plural: 'allocations',
      uuid: true,
      notFound: (prefix) => `No allocation(s) with prefix or id "${prefix}" found`,
      list: (prefix) => listAllocs(client, { prefix }),
      idOf: (a) => a.ID,
      table: (allocs) => allocListTable(allocs, verbose, Date.now()),
    },
    typed,
  );
}

/** The names of the tasks of the allocation's group. */
export function groupTasks(alloc: Allocation): string[] {
  const group = alloc.Job?.TaskGroups?.find((g) => g.Name === alloc.TaskGroup);
  return group ? group.Tasks.map((t) => t.Name) : Object.keys(alloc.TaskStates ?? {});
}

/** Nomad's validateTaskExistsInAllocation. */
export function checkTask(alloc: Allocation, task: string): void {
  const names = groupTasks(alloc);
  if (names.includes(task)) return;
  throw new CommandFailure(`Could not find task named: ${task}, found:\n${formatTable([], names.map((n) => [n])).trimEnd()}`);
}

/** An API failure as Nomad's alloc commands word it: `Error <doing>: Unexpected response code: 400 (...)`. */
export function apiFailure(doing: string, err: unknown): never {
  if (err instanceof ApiError) throw new CommandFailure(`Error ${doing}: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
  throw err;
}
