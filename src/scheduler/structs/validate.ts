/**
 * Validation. validateJobInput rejects structurally wrong JSON before canonicalization (a 400 naming the
 * field); validateJob checks a canonical job and returns every problem at once, worded as Nomad words them,
 * so a user fixing a job file sees the whole list in one round trip.
 */
import { keyPartProblem } from '../../shared/key-length.js';
import { UserError } from '../../shared/errors.js';
import { Re2SyntaxError, compileRe2 } from '../../shared/re2/index.js';
import type { Affinity, Constraint, Spread } from './constraint.js';
import { formatDurationNs, parseDurationNs } from './duration.js';
import type { Job } from './job.js';
import { JOB_MAX_PRIORITY, JOB_MIN_PRIORITY } from './job.js';
import { JOB } from '../wire/job/job.js';
import type { ReschedulePolicy, RestartPolicy, UpdateStrategy } from './policies.js';
import { AFFINITY, CONSTRAINT, SPREAD } from '../wire/job/placement.js';
import { NUMA } from '../wire/job/resources.js';
import { CHECK, SERVICE } from '../wire/job/service.js';
import { ARTIFACT, LIFECYCLE, TEMPLATE } from '../wire/job/task.js';
import { DISCONNECT, PARAMETERIZED, RESCHEDULE, RESTART, UPDATE } from '../wire/job/policies.js';
import type { NetworkResource, Resources } from './resources.js';
import { isPlainObject, JOB_SCHEMA } from './schema.js';
import type { Kind, Schema } from '../wire/job/fields.js';
import type { Service } from './service.js';
import type { Task } from './task.js';
import type { TaskGroup } from './task-group.js';
import { posix } from 'node:path';
import { cronProblem } from '../periodic/cron.js';
import { scheduleProblems } from '../periodic/cron-window.js';

// ---- structural input validation ------------------------------------------------------------------------

/**
 * Throws UserError naming the first wrong field (`Job.TaskGroups[0].Count: …`), or every unknown top-level
 * field at once. Nested unknown fields are tolerated: upstream ignores them and job files carry removed ones.
 */
export function validateJobInput(input: unknown): void {
  if (!isPlainObject(input)) {
    throw new UserError(`Job: expected a JSON object, got ${describe(input)}`);
  }
  const known = new Set(Object.keys(JOB_SCHEMA).map((k) => k.toLowerCase()));
  const unknown = Object.keys(input).filter((k) => !known.has(k.toLowerCase()));
  if (unknown.length > 0) {
    throw new UserError(`Job: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  checkObject(input, JOB_SCHEMA, 'Job');
}

function checkObject(input: Record<string, unknown>, schema: Schema, path: string): void {
  const fields = new Map(Object.entries(schema).map(([k, kind]) => [k.toLowerCase(), [k, kind] as const]));
  for (const [key, value] of Object.entries(input)) {
    const field = fields.get(key.toLowerCase());
    if (!field || value === null || value === undefined) continue;
    checkValue(value, field[1], `${path}.${field[0]}`);
  }
}

function checkValue(v: unknown, kind: Kind, path: string): void {
  const fail = (expected: string): never => {
    throw new UserError(`${path}: expected ${expected}, got ${describe(v)}`);
  };
  if (typeof kind === 'object') {
    if ('obj' in kind) {
      if (!isPlainObject(v)) fail('an object');
      checkObject(v as Record<string, unknown>, kind.obj, path);
    } else if ('list' in kind) {
      if (!Array.isArray(v)) fail('a list of objects');
      (v as unknown[]).forEach((item, i) => {
        if (item === null) return;
        if (!isPlainObject(item)) checkValue(item, { obj: kind.list }, `${path}[${i}]`);
        else checkObject(item, kind.list, `${path}[${i}]`);
      });
    } else {
      if (!isPlainObject(v)) fail('an object');
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (item !== null) checkValue(item, { obj: kind.map }, `${path}[${JSON.stringify(k)}]`);
      }
    }
    return;
  }
  switch (kind) {
    case 'string':
      if (typeof v !== 'string') fail('a string');
      return;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail('an integer');
      return;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) fail('a number');
      return;
    case 'bool':
      if (typeof v !== 'boolean') fail('a boolean');
      return;
    case 'duration':
      if (typeof v === 'number' ? !Number.isInteger(v) : typeof v !== 'string' || parseDurationNs(v) === undefined) {
        fail('a duration (integer nanoseconds or a string such as "30s")');
      }
      return;
    case 'strings':
      if (!Array.isArray(v) || v.some((i) => typeof i !== 'string')) fail('a list of strings');
      return;
    case 'stringMap':
      if (!isPlainObject(v)) fail('an object of strings');
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (typeof item !== 'string' && item !== null) {
          throw new UserError(`${path}[${JSON.stringify(k)}]: expected a string, got ${describe(item)}`);
        }
      }
      return;
    case 'stringListMap':
      if (!isPlainObject(v)) fail('an object of string lists');
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (!Array.isArray(item) || item.some((i) => typeof i !== 'string')) {
          throw new UserError(`${path}[${JSON.stringify(k)}]: expected a list of strings, got ${describe(item)}`);
        }
      }
      return;
    case 'object':
      if (!isPlainObject(v)) fail('an object');
      return;
    case 'any':
      return;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

// ---- semantic validation --------------------------------------------------------------------------------

/**
 * Every problem with a canonical job. Nested problems carry the path Nomad prefixes them with
 * (`Task group web validation failed: Task server validation failed: Missing task driver`), one entry each.
 */
export function validateJob(job: Job): string[] {
  const errs: string[] = [];
  if (job.Region === '') errs.push('Missing job region');
  const idTooLong = keyPartProblem('Job ID', job.ID);
  if (job.ID === '') errs.push('Missing job ID');
  else if (idTooLong) errs.push(idTooLong);
  else if (job.ID.includes(' ')) errs.push('Job ID contains a space');
  else if (job.ID.includes('\0')) errs.push('Job ID contains a null character');
  if (job.Name === '') errs.push('Missing job name');
  else if (job.Name.includes('\0')) errs.push('Job Name contains a null character');
  const namespaceTooLong = keyPartProblem('Job namespace', job.Namespace);
  if (job.Namespace === '') errs.push('Job must be in a namespace');
  else if (namespaceTooLong) errs.push(namespaceTooLong);
  if (job.Type === '') errs.push('Missing job type');
  else if (!(JOB.Type.oneOf as readonly string[]).includes(job.Type)) errs.push(`Invalid job type: "${job.Type}"`);
  if (job.Priority < JOB_MIN_PRIORITY || job.Priority > JOB_MAX_PRIORITY) {
    errs.push(`Job priority must be between [${JOB_MIN_PRIORITY}, ${JOB_MAX_PRIORITY}]`);
  }
  if (job.Datacenters.length === 0) errs.push('Missing job datacenters');
  job.Datacenters.forEach((dc) => {
    if (dc === '') errs.push('Job datacenter must be non-empty string');
  });
  if (job.NodePool === '') errs.push('Missing job node pool');
  if (job.TaskGroups.length === 0) errs.push('Job must have at least one task group');

  (job.Constraints ?? []).forEach((c, i) => nest(errs, `Constraint ${i + 1} validation failed`, validateConstraint(c)));
  (job.Affinities ?? []).forEach((a, i) => nest(errs, `Affinity ${i + 1} validation failed`, validateAffinity(a)));
  (job.Spreads ?? []).forEach((s, i) => nest(errs, `Spread ${i + 1} validation failed`, validateSpread(s)));

  const seen = new Map<string, number>();
  job.TaskGroups.forEach((g, i) => {
    if (g.Name === '') {
      errs.push(`Job task group ${i + 1} missing name`);
    } else if (seen.has(g.Name)) {
      errs.push(`Job task group ${i + 1} redefines '${g.Name}' from group ${seen.get(g.Name)! + 1}`);
    } else {
      seen.set(g.Name, i);
    }
    if (job.Type === 'system' && g.Count > 1) {
      errs.push(`Job task group ${g.Name} has count ${g.Count}. Count cannot exceed 1 with system scheduler`);
    }
    nest(errs, `Task group ${g.Name} validation failed`, validateTaskGroup(g, job));
  });

  const periodicTypes = ['batch', 'sysbatch'];
  if (job.Periodic && job.Periodic.Enabled) {
    if (!periodicTypes.includes(job.Type)) {
      errs.push(`Periodic can only be used with "batch" or "sysbatch" scheduler`);
    }
    nest(errs, 'Periodic validation failed', validatePeriodic(job.Periodic));
  }
  if (job.ParameterizedJob) {
    if (!periodicTypes.includes(job.Type)) {
      errs.push(`Parameterized job can only be used with "batch" or "sysbatch" scheduler`);
    }
    // Periodic and parameterized together is allowed: the periodic launches are dispatched children.
    nest(errs, 'Parameterized job validation failed', validateParameterized(job.ParameterizedJob));
  }
  if (job.Type !== 'batch' && job.Type !== 'sysbatch') {
    for (const g of job.TaskGroups) {
      if (g.MaxRunDuration !== null) {
        errs.push(`Task group ${g.Name}: max_run_duration is only supported for batch and sysbatch jobs`);
      }
    }
  }
  return errs;
}

/** The text Nomad's multi-error prints, for the plain-text error bodies of the scheduler API. */
export function formatValidationErrors(errors: readonly string[]): string {
  const head = errors.length === 1 ? '1 error occurred:' : `${errors.length} errors occurred:`;
  return `${head}\n${errors.map((e) => `\t* ${e}`).join('\n')}\n\n`;
}

function nest(into: string[], prefix: string, inner: string[]): void {
  for (const e of inner) into.push(`${prefix}: ${e}`);
}

function validateTaskGroup(g: TaskGroup, job: Job): string[] {
  const errs: string[] = [];
  if (g.Name.includes('\0')) errs.push('Task group name contains null character');
  if (g.Count < 0) errs.push("Task group count can't be negative");
  if (g.Tasks.length === 0) errs.push('Missing tasks for task group');

  (g.Constraints ?? []).forEach((c, i) => nest(errs, `Constraint ${i + 1} validation failed`, validateConstraint(c)));
  (g.Affinities ?? []).forEach((a, i) => nest(errs, `Affinity ${i + 1} validation failed`, validateAffinity(a)));
  (g.Spreads ?? []).forEach((s, i) => nest(errs, `Spread ${i + 1} validation failed`, validateSpread(s)));

  errs.push(...validateRestart(g.RestartPolicy, `TaskGroup ${g.Name}`));
  if (g.ReschedulePolicy) errs.push(...validateReschedule(g.ReschedulePolicy));
  else if (job.Type === 'service' || job.Type === 'batch') errs.push(`Task Group ${g.Name} should have a reschedule policy`);
  if (g.Update) nest(errs, 'Update strategy validation failed', validateUpdate(g.Update));

  if (g.EphemeralDisk.SizeMB < 10) errs.push(`minimum DiskMB value is 10; got ${g.EphemeralDisk.SizeMB}`);

  if (g.Scaling) {
    const s = g.Scaling;
    if (s.Max < 0) errs.push('Scaling policy invalid: maximum count must not be less than zero');
    if (s.Min < 0) errs.push('Scaling policy invalid: minimum count must not be less than zero');
    if (s.Max < s.Min) errs.push('Scaling policy invalid: maximum count must not be less than minimum count');
    if (s.Enabled && (g.Count < s.Min || g.Count > s.Max)) {
      errs.push(`Scaling policy invalid: task group count must be between minimum and maximum count (${s.Min}..${s.Max})`);
    }
  }

  if (g.Networks && g.Networks.length > 1) errs.push('Only one network resource is allowed');
  errs.push(...validatePorts(g.Networks ?? []));

  // One leader at most: the leader's exit is what ends the others.
  const leaders = g.Tasks.filter((t) => t.Leader).length;
  if (leaders > 1) errs.push('Only one task may be marked as leader');

  const taskIdx = new Map<string, number>();
  g.Tasks.forEach((t, i) => {
    if (t.Name === '') errs.push(`Task ${i + 1} missing name`);
    else if (taskIdx.has(t.Name)) errs.push(`Task ${i + 1} redefines '${t.Name}' from task ${taskIdx.get(t.Name)! + 1}`);
    else taskIdx.set(t.Name, i);
  });

  const serviceNames = new Set<string>();
  for (const s of [...(g.Services ?? []), ...g.Tasks.flatMap((t) => t.Services ?? [])]) {
    const key = `${s.Name}/${s.PortLabel}`;
    if (serviceNames.has(key)) errs.push(`Service ${s.Name} is duplicate`);
    serviceNames.add(key);
    if (s.TaskName !== '' && !taskIdx.has(s.TaskName)) errs.push(`Service ${s.Name} references unknown task ${s.TaskName}`);
  }
  (g.Services ?? []).forEach((s) => nest(errs, `Service ${s.Name} validation failed`, validateService(s)));

  if (g.Volumes) {
    for (const [name, v] of Object.entries(g.Volumes)) {
      if (v.Type !== 'host' && v.Type !== 'csi') errs.push(`Volume ${name} has unrecognised type ${v.Type}`);
      if (v.Source === '') errs.push(`Volume ${name} has an empty source`);
    }
  }
  for (const t of g.Tasks) {
    for (const m of t.VolumeMounts ?? []) {
      if (!g.Volumes || !(m.Volume in g.Volumes)) {
        errs.push(`Task ${t.Name} has a volume mount referencing undefined volume ${m.Volume}`);
      }
    }
  }
  if (g.Disconnect) {
    const d = g.Disconnect;
    if (d.LostAfter < DISCONNECT.LostAfter.min) errs.push('Disconnect: lost_after cannot be a negative duration');
    if (!(DISCONNECT.Reconcile.oneOf as readonly string[]).includes(d.Reconcile)) {
      errs.push(`Disconnect: invalid reconcile option ${JSON.stringify(d.Reconcile)}`);
    }
  }
  if (g.ShutdownDelay !== null && g.ShutdownDelay < 0) errs.push('ShutdownDelay must be a positive value');
  if (g.MaxRunDuration !== null && g.MaxRunDuration < 0) errs.push('MaxRunDuration must be a positive value');

  g.Tasks.forEach((t) => nest(errs, `Task ${t.Name} validation failed`, validateTask(t, g, job)));
  return errs;
}

function validatePorts(networks: NetworkResource[]): string[] {
  const errs: string[] = [];
  const labels = new Set<string>();
  const statics = new Set<number>();
  for (const n of networks) {
    for (const p of [...(n.ReservedPorts ?? []), ...(n.DynamicPorts ?? [])]) {
      if (p.Label === '') errs.push('Port label must not be empty');
      else if (labels.has(p.Label)) errs.push(`Port label ${p.Label} already in use`);
      labels.add(p.Label);
      if (p.Value < 0 || p.Value > 65535) errs.push(`Port ${p.Label} has invalid port value ${p.Value}`);
      if (p.To < -1 || p.To > 65535) errs.push(`Port ${p.Label} has invalid mapped port value ${p.To}`);
    }
    for (const p of n.ReservedPorts ?? []) {
      if (p.Value === 0) continue;
      if (statics.has(p.Value) && !p.IgnoreCollision) errs.push(`Static port ${p.Value} already reserved by another port`);
      statics.add(p.Value);
    }
    for (const p of n.DynamicPorts ?? []) {
      if (p.Value !== 0) errs.push(`Dynamic port ${p.Label} must not set a host port value; use static for a fixed port`);
    }
    if (!/^(host|bridge|none|cni\/.+)$/.test(n.Mode)) errs.push(`Invalid network mode ${JSON.stringify(n.Mode)}`);
  }
  return errs;
}

function validateTask(t: Task, g: TaskGroup, job: Job): string[] {
  const errs: string[] = [];
  if (t.Name.includes('/')) errs.push('Task name can not include slashes');
  if (t.Name.includes('\0')) errs.push('Task name can not include null characters');
  if (t.Driver === '') errs.push('Missing task driver');
  if (t.KillTimeout < 0) errs.push('KillTimeout must be a positive value');
  if (t.ShutdownDelay < 0) errs.push('ShutdownDelay must be a positive value');

  nest(errs, 'Resources validation failed', validateResources(t.Resources));
  errs.push(...validateRestart(t.RestartPolicy, `Task ${t.Name}`));

  if (t.LogConfig.MaxFiles < 1) errs.push(`minimum number of files is 1; got ${t.LogConfig.MaxFiles}`);
  if (t.LogConfig.MaxFileSizeMB < 1) errs.push(`minimum file size is 1MB; got ${t.LogConfig.MaxFileSizeMB}`);
  const logMB = t.LogConfig.MaxFiles * t.LogConfig.MaxFileSizeMB;
  if (!t.LogConfig.Disabled && logMB >= g.EphemeralDisk.SizeMB) {
    errs.push(`log storage (${logMB} MB) must be less than requested disk capacity (${g.EphemeralDisk.SizeMB} MB)`);
  }

  (t.Constraints ?? []).forEach((c, i) => {
    const inner = validateConstraint(c);
    if (c.Operand === 'distinct_hosts' || c.Operand === 'distinct_property') {
      inner.push(`${c.Operand === 'distinct_hosts' ? 'Distinct hosts' : 'Distinct property'} constraint cannot be set at the task level`);
    }
    nest(errs, `Constraint ${i + 1} validation failed`, inner);
  });
  (t.Affinities ?? []).forEach((a, i) => nest(errs, `Affinity ${i + 1} validation failed`, validateAffinity(a)));

  if (t.Lifecycle && !(LIFECYCLE.Hook.oneOf as readonly string[]).includes(t.Lifecycle.Hook)) {
    errs.push(`invalid hook: ${t.Lifecycle.Hook}`);
  }
  (t.Artifacts ?? []).forEach((a, i) => {
    const inner: string[] = [];
    if (a.GetterSource === '') inner.push('source must be specified');
    if (!(ARTIFACT.GetterMode.oneOf as readonly string[]).includes(a.GetterMode)) inner.push(`invalid artifact mode ${JSON.stringify(a.GetterMode)}`);
    if (a.RelativeDest.startsWith('..') || a.RelativeDest.includes('/../')) {
      inner.push('destination escapes allocation directory');
    }
    nest(errs, `Artifact ${i + 1} validation failed`, inner);
  });
  (t.Templates ?? []).forEach((tm, i) => {
    const inner: string[] = [];
    if (tm.SourcePath === '' && tm.EmbeddedTmpl === '') inner.push('Must specify a source path or have an embedded template');
    if (tm.DestPath === '') inner.push('Must specify a destination for the template');
    if (!(TEMPLATE.ChangeMode.oneOf as readonly string[]).includes(tm.ChangeMode)) inner.push(`Invalid change mode (${tm.ChangeMode})`);
    if (tm.ChangeMode === 'script' && (!tm.ChangeScript || tm.ChangeScript.Command === '')) {
      inner.push('must specify script path value when change mode is script');
    }
    if (tm.Splay < 0) inner.push('Must specify positive splay value');
    if (!/^[0-7]{3,4}$/.test(tm.Perms)) inner.push(`Failed to parse ${JSON.stringify(tm.Perms)} as octal`);
    nest(errs, `Template ${i + 1} validation failed`, inner);
  });
  (t.Services ?? []).forEach((s) => nest(errs, `Service ${s.Name} validation failed`, validateService(s)));

  if (t.DispatchPayload && !job.ParameterizedJob) {
    errs.push('Dispatch payload can only be used with parameterized jobs');
  }
  // Written under the task's local/ directory: it must stay there after `..` are resolved.
  if (t.DispatchPayload && (t.DispatchPayload.File.startsWith('/') || posix.normalize(t.DispatchPayload.File).startsWith('..'))) {
    errs.push('Dispatch payload file escapes the task directory');
  }
  const actionNames = new Set<string>();
  for (const a of t.Actions ?? []) {
    if (a.Name === '') errs.push('Action must have a name');
    else if (actionNames.has(a.Name)) errs.push(`Action ${a.Name} is duplicate`);
    actionNames.add(a.Name);
    if (a.Command === '') errs.push(`Action ${a.Name} must have a command`);
  }
  if (t.Vault) {
    if (!['noop', 'restart', 'signal'].includes(t.Vault.ChangeMode)) errs.push(`Vault: invalid change mode "${t.Vault.ChangeMode}"`);
    else if (t.Vault.ChangeMode === 'signal' && t.Vault.ChangeSignal === '') errs.push('Vault: change_signal must be set when change_mode is "signal"');
  }
  const identityNames = new Set<string>([t.Identity?.Name ?? 'default']);
  for (const id of t.Identities ?? []) {
    if (id.Name === '') errs.push('Identity: a named identity must have a name');
    else if (identityNames.has(id.Name)) errs.push(`Identity ${id.Name} is duplicate`);
    identityNames.add(id.Name);
  }
  if (t.Schedule) nest(errs, 'Schedule', scheduleProblems(t.Schedule));
  return errs;
}

function validateResources(r: Resources): string[] {
  const errs: string[] = [];
  if (r.CPU < 1 && r.Cores === 0) errs.push(`minimum CPU value is 1; got ${r.CPU}`);
  if (r.Cores < 0) errs.push(`Cores must not be negative; got ${r.Cores}`);
  if (r.Cores > 0 && r.CPU > 0) errs.push('Task can only ask for \'cpu\' or \'cores\' resource, not both.');
  if (r.MemoryMB < 10) errs.push(`minimum MemoryMB value is 10; got ${r.MemoryMB}`);
  if (r.MemoryMaxMB !== 0 && r.MemoryMaxMB < r.MemoryMB) {
    errs.push(`MemoryMaxMB value (${r.MemoryMaxMB}) should be larger than MemoryMB value (${r.MemoryMB})`);
  }
  if (r.NUMA && !(NUMA.Affinity.oneOf as readonly string[]).includes(r.NUMA.Affinity)) {
    errs.push(`numa affinity must be one of none, prefer, or require; got ${r.NUMA.Affinity}`);
  }
  for (const d of r.Devices ?? []) {
    if (d.Name === '') errs.push('device name must be given as one of the following: type, vendor/type, or vendor/type/name');
    if (d.Count < 0) errs.push(`device ${d.Name} count must not be negative`);
  }
  return errs;
}

function validateRestart(r: RestartPolicy, owner: string): string[] {
  const errs: string[] = [];
  if (!(RESTART.Mode.oneOf as readonly string[]).includes(r.Mode)) errs.push(`Unsupported restart mode: "${r.Mode}"`);
  if (r.Attempts < 0) errs.push(`Restart attempts can not be negative (${r.Attempts})`);
  if (r.Attempts === 0 && r.Mode !== 'fail') errs.push(`Restart policy "${r.Mode}" with ${r.Attempts} attempts is ambiguous`);
  if (r.Interval < RESTART.Interval.min) {
    errs.push(`Interval can not be less than ${formatDurationNs(RESTART.Interval.min)} (got ${formatDurationNs(r.Interval)})`);
  }
  if (r.Attempts * r.Delay > r.Interval) {
    errs.push(
      `Nomad can't restart the ${owner} ${r.Attempts} times in an interval of ${formatDurationNs(r.Interval)} with a delay of ${formatDurationNs(r.Delay)}`,
    );
  }
  return errs;
}

function validateReschedule(r: ReschedulePolicy): string[] {
  const errs: string[] = [];
  const enabled = r.Attempts > 0 || r.Unlimited;
  if (!enabled) return errs;
  if (r.Attempts > 0 && r.Unlimited) {
    errs.push(`Reschedule Policy with Attempts = ${r.Attempts}, Interval = ${formatDurationNs(r.Interval)}, and Unlimited = true is ambiguous`);
  }
  if (r.Delay < RESCHEDULE.Delay.min) {
    errs.push(`Delay cannot be less than ${formatDurationNs(RESCHEDULE.Delay.min)} (got ${formatDurationNs(r.Delay)})`);
  }
  if (!r.Unlimited && r.Interval < RESCHEDULE.Interval.min) {
    errs.push(`Interval cannot be less than ${formatDurationNs(RESCHEDULE.Interval.min)} (got ${formatDurationNs(r.Interval)})`);
  }
  if (!(RESCHEDULE.DelayFunction.oneOf as readonly string[]).includes(r.DelayFunction)) {
    errs.push(`Invalid delay function "${r.DelayFunction}", must be one of ${JSON.stringify(RESCHEDULE.DelayFunction.oneOf)}`);
  } else if (r.DelayFunction !== 'constant') {
    if (r.MaxDelay < RESCHEDULE.Delay.min) {
      errs.push(`Max Delay cannot be less than ${formatDurationNs(RESCHEDULE.Delay.min)} (got ${formatDurationNs(r.MaxDelay)})`);
    }
    if (r.MaxDelay < r.Delay) {
      errs.push(`Max Delay cannot be less than Delay ${formatDurationNs(r.Delay)} (got ${formatDurationNs(r.MaxDelay)})`);
    }
  }
  return errs;
}

function validateUpdate(u: UpdateStrategy): string[] {
  const errs: string[] = [];
  if (!(UPDATE.HealthCheck.oneOf as readonly string[]).includes(u.HealthCheck)) errs.push(`Invalid health check given: "${u.HealthCheck}"`);
  if (u.MaxParallel < 0) errs.push(`Max parallel can not be less than zero: ${u.MaxParallel} < 0`);
  if (u.Canary < 0) errs.push(`Canary count can not be less than zero: ${u.Canary} < 0`);
  if (u.Canary === 0 && u.AutoPromote) errs.push('Auto Promote requires a Canary count greater than zero');
  if (u.MinHealthyTime < 0) errs.push(`Minimum healthy time may not be less than zero: ${u.MinHealthyTime}`);
  if (u.HealthyDeadline <= 0) errs.push(`Healthy deadline must be greater than zero: ${u.HealthyDeadline}`);
  if (u.ProgressDeadline < 0) errs.push(`Progress deadline must be zero or greater: ${u.ProgressDeadline}`);
  if (u.MinHealthyTime >= u.HealthyDeadline) {
    errs.push(`Minimum healthy time must be less than healthy deadline: ${formatDurationNs(u.MinHealthyTime)} > ${formatDurationNs(u.HealthyDeadline)}`);
  }
  if (u.ProgressDeadline !== 0 && u.HealthyDeadline >= u.ProgressDeadline) {
    errs.push(`Healthy deadline must be less than progress deadline: ${formatDurationNs(u.HealthyDeadline)} > ${formatDurationNs(u.ProgressDeadline)}`);
  }
  if (u.Stagger <= 0) errs.push(`Stagger must be greater than zero: ${formatDurationNs(u.Stagger)}`);
  return errs;
}

function validatePeriodic(p: NonNullable<Job['Periodic']>): string[] {
  const errs: string[] = [];
  if (p.SpecType !== 'cron') {
    errs.push(`Unknown periodic specification type "${p.SpecType}"`);
    return errs;
  }
  if (p.Spec === '' && p.Specs.length === 0) errs.push('Must specify a spec');
  if (p.Spec !== '' && p.Specs.length > 0) errs.push('Only cron or crons may be used');
  for (const spec of p.Spec !== '' ? [p.Spec] : p.Specs) {
    const problem = cronProblem(spec);
    if (problem) errs.push(`Invalid cron spec "${spec}": ${problem}`);
  }
  if (p.TimeZone !== '' && !isTimeZone(p.TimeZone)) errs.push(`Invalid time zone "${p.TimeZone}"`);
  return errs;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function validateParameterized(p: NonNullable<Job['ParameterizedJob']>): string[] {
  const errs: string[] = [];
  if (!(PARAMETERIZED.Payload.oneOf as readonly string[]).includes(p.Payload)) {
    errs.push(`Unknown payload requirement: "${p.Payload}"`);
  }
  const optional = new Set(p.MetaOptional ?? []);
  const both = (p.MetaRequired ?? []).filter((k) => optional.has(k));
  if (both.length > 0) errs.push(`Required and optional meta keys should be disjoint. Following keys exist in both: ${both.join(', ')}`);
  return errs;
}

export function validateConstraint(c: Constraint): string[] {
  const errs: string[] = [];
  if (c.Operand === '') {
    errs.push('Missing constraint operand');
    return errs;
  }
  let requireLTarget = true;
  switch (c.Operand) {
    case 'distinct_hosts':
      requireLTarget = false;
      break;
    case 'set_contains':
    case 'set_contains_all':
    case 'set_contains_any':
      if (c.RTarget === '') errs.push('Set contains constraint requires an RTarget');
      break;
    case 'regexp': {
      const problem = regexpProblem(c.RTarget);
      if (problem) errs.push(problem);
      break;
    }
    case 'version':
    case 'semver':
      if (!isVersionConstraint(c.RTarget)) {
        errs.push(`${c.Operand === 'version' ? 'Version' : 'Semver'} constraint is invalid: Malformed constraint: ${c.RTarget}`);
      }
      break;
    case 'distinct_property':
      if (c.RTarget !== '') {
        if (!/^\d+$/.test(c.RTarget)) errs.push(`Failed to convert RTarget "${c.RTarget}" to uint64`);
        else if (Number(c.RTarget) < 1) errs.push(`Distinct Property must have an allowed count of 1 or greater: ${c.RTarget} < 1`);
      }
      break;
    case 'is_set':
    case 'is_not_set':
      if (c.RTarget !== '') errs.push(`Operator "${c.Operand}" does not support an RTarget`);
      break;
    default:
      if ((CONSTRAINT.Operand.oneOf as readonly string[]).includes(c.Operand)) {
        if (c.RTarget === '') errs.push(`Operator "${c.Operand}" requires an RTarget`);
      } else {
        errs.push(`Unknown constraint type "${c.Operand}"`);
      }
  }
  if (requireLTarget && c.LTarget === '') errs.push('No LTarget provided but is required by constraint');
  return errs;
}

/** Why an RE2 pattern does not compile, in Nomad's words; undefined when it does. */
function regexpProblem(pattern: string): string | undefined {
  try {
    compileRe2(pattern);
    return undefined;
  } catch (err) {
    if (!(err instanceof Re2SyntaxError)) throw err;
    return `Regular expression failed to compile: ${err.message}`;
  }
}

/** Comma-separated `op version` terms, as hashicorp/go-version parses them. */
function isVersionConstraint(text: string): boolean {
  if (text.trim() === '') return false;
  return text.split(',').every((part) => /^\s*(=|!=|>|<|>=|<=|~>)?\s*v?\d+(\.\d+)*(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$/.test(part));
}

function validateAffinity(a: Affinity): string[] {
  const errs: string[] = [];
  const allowed = ['=', '==', 'is', '!=', 'not', '<', '<=', '>', '>=', 'regexp', 'version', 'semver', 'set_contains', 'set_contains_all', 'set_contains_any'];
  if (a.Operand === '') errs.push('Missing affinity operand');
  else if (!allowed.includes(a.Operand)) errs.push(`Unknown affinity operator "${a.Operand}"`);
  if (a.Operand === 'regexp') {
    const problem = regexpProblem(a.RTarget);
    if (problem) errs.push(problem);
  }
  if (a.LTarget === '') errs.push('No LTarget provided but is required');
  if (a.RTarget === '') errs.push('No RTarget provided but is required');
  if (a.Weight === 0 || a.Weight < AFFINITY.Weight.min || a.Weight > AFFINITY.Weight.max) {
    errs.push('Affinity weight must be within the range [-100,100] and not equal to zero');
  }
  return errs;
}

function validateSpread(s: Spread): string[] {
  const errs: string[] = [];
  if (s.Attribute === '') errs.push('Missing spread attribute');
  if (s.Weight <= 0 || s.Weight > SPREAD.Weight.max) errs.push('Spread block must have a positive weight from 0 to 100');
  const values = new Set<string>();
  let sum = 0;
  for (const t of s.SpreadTarget ?? []) {
    if (t.Percent < 0 || t.Percent > 100) errs.push(`Spread target percentage for value "${t.Value}" must be between 0 and 100`);
    if (values.has(t.Value)) errs.push(`Spread target value "${t.Value}" already defined`);
    values.add(t.Value);
    sum += t.Percent;
  }
  if (sum > 100) errs.push(`Sum of spread target percentages must not be greater than 100%; got ${sum}%`);
  return errs;
}

function validateService(s: Service): string[] {
  const errs: string[] = [];
  if (s.Name === '') errs.push('Service name must be non-empty');
  else if (/\s/.test(s.Name)) errs.push(`Service name must be valid per RFC 1123 and can contain only alphanumeric characters or dashes: "${s.Name}"`);
  if (!(SERVICE.AddressMode.oneOf as readonly string[]).includes(s.AddressMode)) errs.push(`Invalid address_mode "${s.AddressMode}"`);
  if (!(SERVICE.Provider.oneOf as readonly string[]).includes(s.Provider)) errs.push(`Service provider must be "consul" or "nomad"; got "${s.Provider}"`);
  if (!(SERVICE.OnUpdate.oneOf as readonly string[]).includes(s.OnUpdate)) errs.push(`on_update must be one of require_healthy, ignore_warnings, ignore; got "${s.OnUpdate}"`);
  (s.Checks ?? []).forEach((c) => {
    const inner: string[] = [];
    const type = c.Type.toLowerCase();
    if (!(CHECK.Type.oneOf as readonly string[]).includes(type)) inner.push(`invalid type (${c.Type}), must be http, tcp, script or grpc`);
    if (s.Provider === 'nomad' && type !== 'http' && type !== 'tcp') inner.push(`check type "${c.Type}" is not supported by the nomad provider`);
    if (type === 'script' && c.Command === '') inner.push('script type must have a valid script path');
    if (type === 'http' && c.Path === '') inner.push('http type must have http path');
    if (c.Interval <= 0) inner.push('missing required value interval. Interval cannot be less than 1s');
    else if (c.Interval < 1_000_000_000) inner.push(`interval (${formatDurationNs(c.Interval)}) cannot be lower than 1s`);
    if (c.Timeout <= 0) inner.push('missing required value timeout. Timeout cannot be less than 1s');
    else if (c.Timeout < 1_000_000_000) inner.push(`timeout (${formatDurationNs(c.Timeout)}) is lower than required minimum timeout 1s`);
    nest(errs, `Check ${c.Name} invalid`, inner);
  });
  return errs;
}

/**
 * Problems that do not stop a register but that Nomad reports back in the response's Warnings, so users
 * learn about deprecated or half-applied settings.
 */
export function jobWarnings(job: Job): string[] {
  const warnings: string[] = [];
  if (job.Periodic && job.Periodic.Spec !== '') {
    warnings.push('cron is deprecated and may be removed in a future release. Use crons instead');
  }
  const canaryGroups = job.TaskGroups.filter((g) => g.Update && g.Update.Canary > 0);
  const promoting = canaryGroups.filter((g) => g.Update!.AutoPromote).length;
  if (promoting > 0 && promoting < canaryGroups.length) {
    warnings.push('auto_promote must be true for all groups to enable automatic promotion');
  }
  return warnings;
}
