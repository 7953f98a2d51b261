/**
 * Input shape → server shape. Every default Nomad fills is filled here, so what we store and
 * return is what a Nomad server would return for the same job file. Pure: the input is never mutated.
 */
import { canonicalStruct, list, num, obj, objList, str, strList } from './canonical-struct.js';
import { copyValue } from './copy.js';
import { parseDurationNs } from './duration.js';
import type { Job } from './job.js';
import type { MigrateStrategy, ReschedulePolicy, RestartPolicy, UpdateStrategy } from './policies.js';
import { defaultMigrateStrategy, defaultReschedulePolicy, defaultRestartPolicy, defaultUpdateStrategy, emptyUpdateStrategy } from './policies.js';
import { GROUP, VOLUME_REQUEST } from '../wire/job/group.js';
import { JOB } from '../wire/job/job.js';
import { CHECK, CHECK_RESTART, SERVICE } from '../wire/job/service.js';
import { ARTIFACT, DEFAULT_IDENTITY_AUDIENCE, IDENTITY, LIFECYCLE, TASK, TEMPLATE } from '../wire/job/task.js';
import { SCALING } from '../wire/job/policies.js';
import { RESOURCES } from '../wire/job/resources.js';
import type { Resources } from './resources.js';
import { isPlainObject, JOB_SCHEMA, lookup } from './schema.js';
import type { Kind, Schema } from '../wire/job/fields.js';
import type { Service, ServiceCheck } from './service.js';
import type { Task, TaskArtifact, Template, WorkloadIdentity } from './task.js';
import type { TaskGroup, VolumeRequest } from './task-group.js';

/** The input shape: every field optional, as sent inside `{"Job": …}` or produced by a jobspec parser. */
export type Input<T> = T extends (infer U)[]
  ? Input<U>[]
  : T extends Record<string, unknown>
    ? { [K in keyof T]?: Input<T[K]> }
    : T;

type In = Record<string, unknown>;

export function canonicalizeJob(input: unknown): Job {
  const raw = normalizeObject(isPlainObject(input) ? input : {}, JOB_SCHEMA);
  const type = str(raw.Type) || JOB.Type.default;
  const id = str(raw.ID);
  const name = str(raw.Name) || id;
  const jobUpdate = obj(raw.Update);
  const job = canonicalStruct(JOB, raw, { Name: name, TaskGroups: [], Update: jobLevelUpdate(type, jobUpdate) });
  const ctx: JobContext = {
    type,
    id,
    name,
    namespace: job.Namespace,
    update: raw.Update === undefined ? undefined : jobUpdate,
    reschedule: raw.Reschedule === undefined ? undefined : obj(raw.Reschedule),
    migrate: raw.Migrate === undefined ? undefined : obj(raw.Migrate),
  };
  job.TaskGroups = objList(raw.TaskGroups).map((g) => taskGroup(g, ctx));
  return job;
}

interface JobContext {
  type: string;
  id: string;
  name: string;
  namespace: string;
  update: In | undefined;
  reschedule: In | undefined;
  migrate: In | undefined;
}

/**
 * Only Stagger and MaxParallel are kept at job level; the complete strategy lives on each group. Jobs that
 * deploy (service, system) get Nomad's defaults for those two even without an update block.
 */
function jobLevelUpdate(type: string, given: In): UpdateStrategy {
  const u = emptyUpdateStrategy();
  const deploys = type === 'service' || type === 'system';
  if (!deploys && Object.keys(given).length === 0) return u;
  const d = defaultUpdateStrategy();
  u.Stagger = num(given.Stagger, d.Stagger);
  u.MaxParallel = num(given.MaxParallel, d.MaxParallel);
  return u;
}

function groupUpdate(ctx: JobContext, given: unknown): UpdateStrategy | null {
  if (ctx.type !== 'service' && ctx.type !== 'system') return null;
  const merged: In = { ...(ctx.update ?? {}), ...obj(given) };
  return merge(defaultUpdateStrategy(), merged);
}

function taskGroup(g: In, ctx: JobContext): TaskGroup {
  const name = str(g.Name);
  const restart = merge(defaultRestartPolicy(ctx.type), obj(g.RestartPolicy));
  const rescheduleDefault = defaultReschedulePolicy(ctx.type);
  const scaling = g.Scaling === undefined ? null : canonicalStruct(SCALING, obj(g.Scaling));
  const count = g.Count !== undefined ? num(g.Count, GROUP.Count.default) : scaling && obj(g.Scaling).Min !== undefined ? scaling.Min : GROUP.Count.default;
  if (scaling && obj(g.Scaling).Min === undefined) scaling.Min = count;
  // The target is what the scaling endpoints and autoscalers address the group by.
  if (scaling && scaling.Target === null) scaling.Target = { Namespace: ctx.namespace, Job: ctx.id, Group: name };
  const group = canonicalStruct(GROUP, g, {
    Count: count,
    Update: groupUpdate(ctx, g.Update),
    Migrate:
      ctx.type === 'service'
        ? merge<MigrateStrategy>(defaultMigrateStrategy(), { ...(ctx.migrate ?? {}), ...obj(g.Migrate) })
        : null,
    Scaling: scaling,
    RestartPolicy: restart,
    Tasks: [],
    ReschedulePolicy: rescheduleDefault
      ? merge<ReschedulePolicy>(rescheduleDefault, { ...(ctx.reschedule ?? {}), ...obj(g.ReschedulePolicy) })
      : null,
    Services: list(g.Services, (s) => service(s, { job: ctx.name, group: name, task: '', namespace: ctx.namespace })),
    Volumes: volumes(g.Volumes),
  });
  group.Tasks = objList(g.Tasks).map((t) => task(t, ctx, group));
  return group;
}

function task(t: In, ctx: JobContext, group: TaskGroup): Task {
  const name = str(t.Name);
  return canonicalStruct(TASK, t, {
    Services: list(t.Services, (s) => service(s, { job: ctx.name, group: group.Name, task: name, namespace: ctx.namespace })),
    Templates: list(t.Templates, template),
    Resources: resources(obj(t.Resources)),
    RestartPolicy: merge<RestartPolicy>({ ...group.RestartPolicy }, obj(t.RestartPolicy)),
    Lifecycle: lifecycle(obj(t.Lifecycle)),
    Artifacts: list(t.Artifacts, artifact),
    ScalingPolicies: Array.isArray(t.ScalingPolicies) && t.ScalingPolicies.length > 0
      ? (copyValue(t.ScalingPolicies) as Record<string, unknown>[])
      : null,
    Identity: t.Identity === undefined ? defaultIdentity() : identity(obj(t.Identity), 'default'),
    Identities: list(t.Identities, (i) => identity(i, '')),
  });
}

function resources(r: In): Resources {
  // Asking for whole cores replaces the MHz default: a task pinned to cores has no shared CPU share.
  return canonicalStruct(RESOURCES, r, { CPU: num(r.CPU, r.Cores !== undefined ? 0 : RESOURCES.CPU.default) });
}

function volumes(v: unknown): Record<string, VolumeRequest> | null {
  if (!isPlainObject(v)) return null;
  const out: Record<string, VolumeRequest> = {};
  for (const key of Object.keys(v).sort()) {
    const r = obj(v[key]);
    out[key] = canonicalStruct(VOLUME_REQUEST, r, { Name: str(r.Name) || key });
  }
  return Object.keys(out).length > 0 ? out : null;
}

function lifecycle(l: In): Task['Lifecycle'] {
  // A lifecycle block without a hook says nothing: Nomad drops it rather than keep an empty hook.
  const hook = str(l.Hook);
  return hook === '' ? null : canonicalStruct(LIFECYCLE, l);
}

function artifact(a: In): TaskArtifact {
  const mode = str(a.GetterMode) || ARTIFACT.GetterMode.default;
  const source = str(a.GetterSource);
  let dest = str(a.RelativeDest);
  if (dest === '') {
    dest = mode === 'file' ? `local/${basename(source)}` : 'local/';
  }
  return canonicalStruct(ARTIFACT, a, { RelativeDest: dest });
}

/** Go's path.Base, query string included, as Nomad names a file-mode artifact after its source. */
function basename(source: string): string {
  const trimmed = source.replace(/\/+$/, '');
  if (trimmed === '') return source === '' ? '.' : '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function template(t: In): Template {
  const mode = str(t.ChangeMode) || TEMPLATE.ChangeMode.default;
  let signal = str(t.ChangeSignal).toUpperCase();
  if (signal === '' && mode === 'signal') signal = 'SIGHUP';
  return canonicalStruct(TEMPLATE, t, { ChangeSignal: signal });
}

function defaultIdentity(): WorkloadIdentity {
  return identity({}, 'default');
}

function identity(i: In, defaultName: string): WorkloadIdentity {
  const name = str(i.Name) || defaultName;
  return canonicalStruct(IDENTITY, i, { Name: name, Audience: strList(i.Audience) ?? (name === 'default' ? [DEFAULT_IDENTITY_AUDIENCE] : null) });
}

interface ServiceOwner {
  job: string;
  group: string;
  /** empty for group services */
  task: string;
  namespace: string;
}

function service(s: In, owner: ServiceOwner): Service {
  const taskWord = owner.task || 'group';
  // Nomad substitutes these names when the service is registered, so `${JOB}-api` works in a job file.
  const vars: Record<string, string> = {
    JOB: owner.job,
    TASKGROUP: owner.group,
    TASK: taskWord,
    BASE: `${owner.job}-${owner.group}-${taskWord}`,
  };
  const defaultName = owner.task ? `${owner.job}-${owner.group}-${owner.task}` : `${owner.job}-${owner.group}`;
  const name = (str(s.Name) || defaultName).replace(/\$\{(JOB|TASKGROUP|TASK|BASE)\}/g, (_m, k: string) => vars[k]);
  const provider = str(s.Provider) || SERVICE.Provider.default;
  // Consul reports an unset namespace as "default"; Nomad's own registry lives in the job's namespace.
  const namespace = provider === 'nomad' ? owner.namespace : str(s.Namespace) || SERVICE.Namespace.default;
  const onUpdate = str(s.OnUpdate) || SERVICE.OnUpdate.default;
  const serviceRestart = s.CheckRestart === undefined ? undefined : obj(s.CheckRestart);
  return canonicalStruct(SERVICE, s, {
    Name: name,
    TaskName: str(s.TaskName) || owner.task,
    Checks: list(s.Checks, (c) => check(c, name, onUpdate, serviceRestart)),
    Namespace: namespace,
  });
}

function check(c: In, serviceName: string, serviceOnUpdate: string, serviceRestart: In | undefined): ServiceCheck {
  // A service-level check_restart applies to every check; a check's own block wins field by field.
  const restartIn = serviceRestart || c.CheckRestart !== undefined ? { ...(serviceRestart ?? {}), ...obj(c.CheckRestart) } : undefined;
  return canonicalStruct(CHECK, c, {
    Name: str(c.Name) || `service: "${serviceName}" check`,
    CheckRestart: restartIn ? canonicalStruct(CHECK_RESTART, restartIn) : null,
    OnUpdate: str(c.OnUpdate) || serviceOnUpdate,
  });
}

// ---- reading the normalized input ----------------------------------------------------------------------

/** Fields the user set replace the defaults one by one; unset fields keep the default. */
function merge<T extends object>(defaults: T, given: In): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const key of Object.keys(defaults)) {
    const v = given[key];
    if (v !== undefined && typeof v === typeof out[key]) out[key] = v;
  }
  return out as T;
}

// ---- normalization: canonical key names, lenient scalar coercion, null → unset ----------------------------

/**
 * Rebuilds `input` with the schema's key spelling. Values of the wrong type are dropped (so the default
 * applies) rather than thrown on: validateJobInput is where callers are told about them.
 */
export function normalizeObject(input: Record<string, unknown>, schema: Schema): In {
  const out: In = {};
  for (const [field, kind] of Object.entries(schema)) {
    const v = normalizeValue(lookup(input, field), kind);
    if (v !== undefined) out[field] = v;
  }
  return out;
}

function normalizeValue(v: unknown, kind: Kind): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof kind === 'object') {
    if ('obj' in kind) return isPlainObject(v) ? normalizeObject(v, kind.obj) : undefined;
    if ('list' in kind) return Array.isArray(v) ? v.filter(isPlainObject).map((i) => normalizeObject(i, kind.list)) : undefined;
    if (!isPlainObject(v)) return undefined;
    const out: In = {};
    for (const [k, item] of Object.entries(v)) if (isPlainObject(item)) out[k] = normalizeObject(item, kind.map);
    return out;
  }
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    case 'int':
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) return undefined;
      return kind === 'int' ? Math.trunc(n) : n;
    }
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      return undefined;
    case 'duration':
      if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
      return typeof v === 'string' ? parseDurationNs(v) : undefined;
    case 'strings':
      return Array.isArray(v) ? v.filter((i) => i !== null && typeof i !== 'object').map(String) : undefined;
    case 'stringMap':
    case 'stringListMap':
    case 'object':
      return isPlainObject(v) ? copyValue(v) : undefined;
    case 'any':
      return copyValue(v);
  }
}
