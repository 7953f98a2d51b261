/**
 * Job, task group and task diffs (Nomad's Job.Diff, TaskGroup.Diff, Task.Diff). The primitive fields of
 * the job, group and task themselves never carry None entries; `contextual` adds the unchanged fields of
 * the nested objects that did change.
 */
import type { Job } from '../job.js';
import type { TaskGroup } from '../task-group.js';
import type { Task } from '../task.js';
import { deepEqual } from '../copy.js';
import type { JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff } from './types.js';
import {
  fieldDiffs,
  fullFlat,
  keyedDiffs,
  listOrNull,
  primitiveFlat,
  primitiveObjectDiff,
  primitiveObjectSetDiff,
  stringSetDiff,
  type Flat,
} from './primitives.js';
import {
  identityDiff,
  networkDiffs,
  resourcesDiff,
  scalingDiff,
  serviceDiffs,
  simpleBlockDiff,
  spreadDiffs,
  templateDiffs,
  volumeDiffs,
} from './blocks.js';

/** Set by the server, or not part of the spec: never shown. */
const JOB_FILTER = [
  'ID',
  'Status',
  'StatusDescription',
  'Version',
  'Stable',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'Update',
  'SubmitTime',
  'NomadTokenID',
  'VaultToken',
  // []byte in Go, which the primitive flatten skips
  'Payload',
];

/** Optional durations of a group (Go pointers): compared only when both groups exist, "" when unset. */
const GROUP_OPTIONAL_DURATIONS = ['ShutdownDelay', 'StopAfterClientDisconnect', 'MaxClientDisconnect', 'MaxRunDuration'] as const;

/**
 * The diff from `old` to `next` (either may be null: a new or a deleted job). Both must have the same ID.
 * With `contextual`, nested objects that changed also list their unchanged fields (Type None), as the
 * versions endpoint and `job plan` ask for.
 */
export function diffJobs(old: Job | null, next: Job | null, contextual: boolean): JobDiff {
  if (!old && !next) return { Type: 'None', ID: '', Fields: null, Objects: null, TaskGroups: null };
  if (old && next && old.ID !== next.ID) throw new Error(`can not diff jobs with different IDs: "${old.ID}" and "${next.ID}"`);
  const opts = { maps: ['Meta'], filter: JOB_FILTER };
  const fields = fieldDiffs(primitiveFlat(old, opts), primitiveFlat(next, opts), false);

  const objects: ObjectDiff[] = [];
  const datacenters = stringSetDiff(old?.Datacenters, next?.Datacenters, 'Datacenters', contextual);
  if (datacenters && datacenters.Type !== 'None') objects.push(datacenters);
  objects.push(...primitiveObjectSetDiff(old?.Constraints, next?.Constraints, 'Constraint', contextual));
  objects.push(...primitiveObjectSetDiff(old?.Affinities, next?.Affinities, 'Affinity', contextual));
  objects.push(...spreadDiffs(old?.Spreads, next?.Spreads, contextual));
  const periodic = primitiveObjectDiff(old?.Periodic, next?.Periodic, 'Periodic', contextual);
  if (periodic) objects.push(periodic);
  const parameterized = parameterizedDiff(old, next, contextual);
  if (parameterized) objects.push(parameterized);

  const groups = keyedDiffs(old?.TaskGroups, next?.TaskGroups, (g) => g.Name, (a, b) => groupDiff(a, b, contextual));
  groups.sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));

  let type: JobDiff['Type'] = !old ? 'Added' : !next ? 'Deleted' : 'None';
  if (type === 'None' && [...(fields ?? []), ...objects, ...groups].some((d) => d.Type !== 'None')) type = 'Edited';
  return { Type: type, ID: (next ?? old)!.ID, Fields: fields, Objects: listOrNull(objects), TaskGroups: listOrNull(groups) };
}

function parameterizedDiff(old: Job | null, next: Job | null, contextual: boolean): ObjectDiff | null {
  const o = old?.ParameterizedJob ?? null;
  const n = next?.ParameterizedJob ?? null;
  if (deepEqual(o, n)) return null;
  const objects: ObjectDiff[] = [];
  const optional = stringSetDiff(o?.MetaOptional, n?.MetaOptional, 'MetaOptional', contextual);
  if (optional) objects.push(optional);
  const required = stringSetDiff(o?.MetaRequired, n?.MetaRequired, 'MetaRequired', contextual);
  if (required) objects.push(required);
  return {
    Type: !o ? 'Added' : !n ? 'Deleted' : 'Edited',
    Name: 'ParameterizedJob',
    Fields: fieldDiffs(primitiveFlat(o), primitiveFlat(n), contextual),
    Objects: listOrNull(objects),
  };
}

/** Group equality without the scaling policy's server-assigned ID and indexes. */
function groupSpec(g: TaskGroup): TaskGroup {
  return g.Scaling ? { ...g, Scaling: { ...g.Scaling, ID: '', CreateIndex: 0, ModifyIndex: 0 } } : g;
}

function optionalDuration(v: number | null | undefined): string {
  return v === null || v === undefined ? '' : String(v);
}

export function groupDiff(old: TaskGroup | null, next: TaskGroup | null, contextual: boolean): TaskGroupDiff {
  const opts = { maps: ['Meta'], filter: ['Name', ...GROUP_OPTIONAL_DURATIONS] };
  const oldFlat: Flat = primitiveFlat(old, opts);
  const newFlat: Flat = primitiveFlat(next, opts);
  if (oldFlat && newFlat) {
    for (const key of GROUP_OPTIONAL_DURATIONS) {
      oldFlat[key] = optionalDuration(old![key]);
      newFlat[key] = optionalDuration(next![key]);
    }
  }
  const objects: ObjectDiff[] = [];
  const push = (d: ObjectDiff | null) => void (d && objects.push(d));
  objects.push(...primitiveObjectSetDiff(old?.Constraints, next?.Constraints, 'Constraint', contextual));
  objects.push(...primitiveObjectSetDiff(old?.Affinities, next?.Affinities, 'Affinity', contextual));
  objects.push(...spreadDiffs(old?.Spreads, next?.Spreads, contextual));
  push(primitiveObjectDiff(old?.RestartPolicy, next?.RestartPolicy, 'RestartPolicy', contextual));
  push(primitiveObjectDiff(old?.ReschedulePolicy, next?.ReschedulePolicy, 'ReschedulePolicy', contextual));
  push(primitiveObjectDiff(old?.EphemeralDisk, next?.EphemeralDisk, 'EphemeralDisk', contextual));
  push(primitiveObjectDiff(old?.Consul, next?.Consul, 'Consul', contextual));
  // Stagger is a job-level setting Nomad copies into every group; it is not shown here.
  push(primitiveObjectDiff(old?.Update, next?.Update, 'Update', contextual, { filter: ['Stagger'] }));
  objects.push(...networkDiffs(old?.Networks, next?.Networks, contextual));
  push(scalingDiff(old?.Scaling, next?.Scaling));
  objects.push(...serviceDiffs(old?.Services, next?.Services, contextual));
  objects.push(...volumeDiffs(old?.Volumes, next?.Volumes, contextual));

  const tasks = keyedDiffs(old?.Tasks, next?.Tasks, (t) => t.Name, (a, b) => taskDiff(a, b, contextual));
  tasks.sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
  const type = !old ? 'Added' : !next ? 'Deleted' : deepEqual(groupSpec(old), groupSpec(next)) ? 'None' : 'Edited';
  return {
    Type: type,
    Name: (next ?? old)!.Name,
    Fields: fieldDiffs(oldFlat, newFlat, false),
    Objects: listOrNull(objects),
    Tasks: listOrNull(tasks),
    Updates: null,
  };
}

/** A task's driver config: every key flattened (`args[0]`, `mounts[0][target]`). */
function configDiff(o: Record<string, unknown> | null | undefined, n: Record<string, unknown> | null | undefined, contextual: boolean): ObjectDiff | null {
  if (deepEqual(o ?? null, n ?? null)) return null;
  const empty = (c: typeof o) => !c || Object.keys(c).length === 0;
  return {
    Type: empty(o) ? 'Added' : empty(n) ? 'Deleted' : 'Edited',
    Name: 'Config',
    Fields: fieldDiffs(fullFlat(o), fullFlat(n), contextual),
    Objects: null,
  };
}

export function taskDiff(old: Task | null, next: Task | null, contextual: boolean): TaskDiff {
  const opts = { maps: ['Env', 'Meta'], filter: ['Name', 'Config'] };
  const objects: ObjectDiff[] = [];
  const push = (d: ObjectDiff | null) => void (d && objects.push(d));
  objects.push(...primitiveObjectSetDiff(old?.Constraints, next?.Constraints, 'Constraint', contextual));
  objects.push(...primitiveObjectSetDiff(old?.Affinities, next?.Affinities, 'Affinity', contextual));
  push(configDiff(old?.Config, next?.Config, contextual));
  push(resourcesDiff(old?.Resources, next?.Resources, contextual));
  push(primitiveObjectDiff(old?.LogConfig, next?.LogConfig, 'LogConfig', contextual));
  push(primitiveObjectDiff(old?.DispatchPayload, next?.DispatchPayload, 'DispatchPayload', contextual));
  objects.push(...primitiveObjectSetDiff(old?.Artifacts, next?.Artifacts, 'Artifact', contextual, { maps: ['GetterOptions', 'GetterHeaders'] }));
  objects.push(...serviceDiffs(old?.Services, next?.Services, contextual));
  push(simpleBlockDiff('Vault', old?.Vault, next?.Vault, contextual));
  objects.push(...templateDiffs(old?.Templates, next?.Templates, contextual));
  push(identityDiff(old?.Identity, next?.Identity, contextual));
  // Not diffed by Nomad (a changed hook shows as an Edited task with nothing in it); svc shows it.
  push(simpleBlockDiff('Lifecycle', old?.Lifecycle, next?.Lifecycle, contextual));

  const type = !old ? 'Added' : !next ? 'Deleted' : deepEqual(old, next) ? 'None' : 'Edited';
  return {
    Type: type,
    Name: (next ?? old)!.Name,
    Fields: fieldDiffs(primitiveFlat(old, opts), primitiveFlat(next, opts), false),
    Objects: listOrNull(objects),
    Annotations: null,
  };
}
