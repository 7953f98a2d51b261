/**
 * Whether moving a group's allocation from one job version to another needs a new allocation
 * (destructive) or can update the running one in place (Nomad's tasksUpdated). A running task cannot
 * change its driver, command, environment, resources, ports, files or identity; services, checks,
 * constraints, counts, restart and kill settings can change under it.
 */
import { deepEqual } from '../structs/copy.js';
import type { Job } from '../structs/job.js';
import type { NetworkResource } from '../structs/resources.js';
import type { Task } from '../structs/task.js';
import type { TaskGroup } from '../structs/task-group.js';

export function tasksUpdated(next: Job, prev: Job, groupName: string): boolean {
  const a = prev.TaskGroups.find((g) => g.Name === groupName);
  const b = next.TaskGroups.find((g) => g.Name === groupName);
  if (!a || !b) return true;
  if (a.Tasks.length !== b.Tasks.length) return true;
  if (!deepEqual(a.EphemeralDisk, b.EphemeralDisk)) return true;
  if (networksUpdated(a.Networks, b.Networks)) return true;
  if (!deepEqual(affinities(prev, a), affinities(next, b))) return true;
  if (!deepEqual([...(prev.Spreads ?? []), ...(a.Spreads ?? [])], [...(next.Spreads ?? []), ...(b.Spreads ?? [])])) return true;
  if (consulNamespace(a.Consul) !== consulNamespace(b.Consul)) return true;
  if (!deepEqual(a.Volumes ?? {}, b.Volumes ?? {})) return true;
  if (Boolean(a.RestartPolicy?.RenderTemplates) !== Boolean(b.RestartPolicy?.RenderTemplates)) return true;
  return a.Tasks.some((at) => {
    const bt = b.Tasks.find((t) => t.Name === at.Name);
    return !bt || taskUpdated(at, bt) || !deepEqual(combinedMeta(prev, a, at), combinedMeta(next, b, bt));
  });
}

function taskUpdated(a: Task, b: Task): boolean {
  if (a.Driver !== b.Driver || a.User !== b.User || a.Leader !== b.Leader || a.KillSignal !== b.KillSignal) return true;
  if (a.LogConfig?.Disabled !== b.LogConfig?.Disabled) return true;
  if (Boolean(a.RestartPolicy?.RenderTemplates) !== Boolean(b.RestartPolicy?.RenderTemplates)) return true;
  if (consulNamespace(a.Consul) !== consulNamespace(b.Consul)) return true;
  if (networksUpdated(a.Resources.Networks, b.Resources.Networks)) return true;
  const ra = a.Resources;
  const rb = b.Resources;
  if (ra.CPU !== rb.CPU || ra.Cores !== rb.Cores || ra.MemoryMB !== rb.MemoryMB || ra.MemoryMaxMB !== rb.MemoryMaxMB) return true;
  if (ra.SecretsMB !== rb.SecretsMB || !deepEqual(ra.Devices, rb.Devices) || !deepEqual(ra.NUMA, rb.NUMA)) return true;
  const fields = ['Config', 'Env', 'Artifacts', 'Vault', 'Templates', 'CSIPluginConfig', 'VolumeMounts', 'Identity', 'Identities', 'Lifecycle'] as const;
  // An empty map and a missing one are the same to a running task.
  return fields.some((f) => !deepEqual(emptyToNull(a[f]), emptyToNull(b[f])));
}

/** Ports compared by label, static value and mapping; a dynamic port's assigned value is not a change. */
function networksUpdated(a: NetworkResource[] | null, b: NetworkResource[] | null): boolean {
  const la = a ?? [];
  const lb = b ?? [];
  if (la.length !== lb.length) return true;
  return la.some((na, i) => {
    const nb = lb[i];
    if (na.Mode !== nb.Mode || na.MBits !== nb.MBits || na.Hostname !== nb.Hostname) return true;
    if (!deepEqual(na.DNS, nb.DNS) || !deepEqual(na.CNI, nb.CNI)) return true;
    return !deepEqual(portMap(na), portMap(nb));
  });
}

function portMap(n: NetworkResource): unknown[] {
  return [
    ...(n.ReservedPorts ?? []).map((p) => [p.Label, p.Value, p.To, p.HostNetwork]),
    ...(n.DynamicPorts ?? []).map((p) => [p.Label, -1, p.To, p.HostNetwork]),
  ];
}

function affinities(job: Job, group: TaskGroup): unknown[] {
  return [...(job.Affinities ?? []), ...(group.Affinities ?? []), ...group.Tasks.flatMap((t) => t.Affinities ?? [])];
}

function consulNamespace(c: Record<string, unknown> | null): string {
  const ns = c?.Namespace;
  return typeof ns === 'string' ? ns : '';
}

/** Job, then group, then task meta, later ones winning: what the task sees as NOMAD_META_*. */
function combinedMeta(job: Job, group: TaskGroup, task: Task): Record<string, string> {
  return { ...(job.Meta ?? {}), ...(group.Meta ?? {}), ...(task.Meta ?? {}) };
}

function emptyToNull(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.length === 0 ? null : v;
  if (typeof v === 'object' && Object.keys(v).length === 0) return null;
  return v;
}
