/**
 * What `job plan` adds to a job diff (Nomad's scheduler/annotate.go): per task group, how many
 * allocations each kind of update touches; on a changed count, whether it creates or destroys; on each
 * changed task, whether the change is made in place or forces a new allocation.
 */
import type { FieldDiff, JobDiff, TaskDiff, TaskGroupDiff } from './types.js';

/** The per-group counts of a plan (the scheduler's DesiredUpdates). */
export interface GroupUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  Canary: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
}

const UPDATE_NAMES: Array<[keyof GroupUpdates, string]> = [
  ['Ignore', 'ignore'],
  ['Place', 'create'],
  ['Migrate', 'migrate'],
  ['Stop', 'destroy'],
  ['Canary', 'canary'],
  ['InPlaceUpdate', 'in-place update'],
  ['DestructiveUpdate', 'create/destroy update'],
];

/** Task objects whose changes the node applies without replacing the allocation. */
const IN_PLACE_OBJECTS = new Set(['Service', 'Constraint', 'Affinity', 'Spread']);

/** Annotates `diff` in place with the plan's per-group updates. */
export function annotateDiff(diff: JobDiff, desired: Record<string, GroupUpdates>): JobDiff {
  for (const group of diff.TaskGroups ?? []) annotateGroup(group, desired[group.Name]);
  return diff;
}

function annotateGroup(group: TaskGroupDiff, updates: GroupUpdates | undefined): void {
  if (updates) {
    const counts: Record<string, number> = {};
    for (const [field, name] of UPDATE_NAMES) if (updates[field] !== 0) counts[name] = updates[field];
    group.Updates = counts;
  }
  const count = group.Fields?.find((f) => f.Name === 'Count');
  if (count) annotateCount(count);
  for (const task of group.Tasks ?? []) annotateTask(task, group);
}

function annotateCount(field: FieldDiff): void {
  const before = field.Old === '' ? 0 : Number(field.Old);
  const after = field.New === '' ? 0 : Number(field.New);
  if (before < after) field.Annotations = [...(field.Annotations ?? []), 'forces create'];
  else if (after < before) field.Annotations = [...(field.Annotations ?? []), 'forces destroy'];
}

function annotateTask(task: TaskDiff, group: TaskGroupDiff): void {
  if (task.Type === 'None') return;
  if (group.Type === 'Added' || group.Type === 'Deleted') {
    task.Annotations = [...(task.Annotations ?? []), group.Type === 'Added' ? 'forces create' : 'forces destroy'];
    return;
  }
  // Any changed field but the kill timeout needs a new allocation; so does any object but those above,
  // and a log config whose collection is switched on or off (a contextual diff lists an unchanged
  // Disabled too, which Nomad's check would count; only a change counts here).
  const destructive =
    (task.Fields ?? []).some((f) => f.Name !== 'KillTimeout') ||
    (task.Objects ?? []).some((o) =>
      o.Name === 'LogConfig' ? (o.Fields ?? []).some((f) => f.Name === 'Disabled' && f.Type !== 'None') : !IN_PLACE_OBJECTS.has(o.Name),
    );
  task.Annotations = [...(task.Annotations ?? []), destructive ? 'forces create/destroy update' : 'forces in-place update'];
}
