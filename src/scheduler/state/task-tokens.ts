/**
 * The tokens given to an allocation's tasks, by allocation: the accessors the server revokes once the
 * allocation is finished or collected. Kept in the store, so that a restarted server (or another of the
 * cluster) still revokes what was given before.
 */
import type { Store } from '../../storage/store.js';
import { clientTerminal } from '../structs/allocation.js';
import { getAlloc } from './allocs.js';

const TASK_TOKENS_TABLE = 'task-tokens';

/** An allocation's tokens: task name → accessor of the token it holds now. */
export interface TaskTokenRecord {
  allocId: string;
  tasks: Record<string, string>;
}

export async function recordTaskTokens(store: Store, allocId: string, tasks: Record<string, string>): Promise<string[]> {
  const { result } = await store.write((tx) => {
    const prev = tx.get<TaskTokenRecord>(TASK_TOKENS_TABLE, allocId);
    const replaced = Object.entries(prev?.tasks ?? {}).filter(([task, accessor]) => tasks[task] !== undefined && tasks[task] !== accessor).map(([, accessor]) => accessor);
    tx.put(TASK_TOKENS_TABLE, allocId, { allocId, tasks: { ...prev?.tasks, ...tasks } } satisfies TaskTokenRecord);
    return replaced;
  });
  return result;
}

/** The records whose allocation is gone or finished on its node: their tokens are no longer anyone's. */
export function finishedTaskTokens(store: Store): TaskTokenRecord[] {
  return store.list<TaskTokenRecord>(TASK_TOKENS_TABLE).flatMap(({ value }) => {
    const alloc = getAlloc(store, value.allocId);
    return !alloc || clientTerminal(alloc.ClientStatus) ? [value] : [];
  });
}

export async function forgetTaskTokens(store: Store, allocIds: string[]): Promise<void> {
  if (allocIds.length === 0) return;
  await store.write((tx) => {
    for (const id of allocIds) tx.delete(TASK_TOKENS_TABLE, id);
  });
}
