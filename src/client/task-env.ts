/**
 * The task's environment, with Nomad's variable names (and an `SVC_` twin of each), and the
 * interpolation of `${...}` in the task's `env`, `config` and `args`.
 */
import type { ClientAlloc } from './types.js';
import type { Task } from '../scheduler/structs/task.js';
import { type Node, nodeTarget } from '../scheduler/structs/node.js';

/** The paths the task sees: host paths for raw_exec, paths inside the task root for exec. */
export interface TaskEnvPaths {
  allocDir: string;
  taskDir: string;
  secretsDir: string;
}

export interface TaskEnvInput {
  alloc: ClientAlloc;
  task: Task;
  node: Node;
  paths: TaskEnvPaths;
  /** raw_exec tasks inherit the server's environment, as Nomad's do; isolated ones do not */
  hostEnv?: Record<string, string | undefined>;
}

/** The allocation index from its name `<job>.<group>[<index>]`. */
function allocIndex(name: string): string {
  return /\[(\d+)\]$/.exec(name)?.[1] ?? '0';
}

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** The NOMAD_* variables the client sets (without the task's `env` block). */
function nomadVars(input: TaskEnvInput): Record<string, string> {
  const { alloc, task, node, paths } = input;
  const job = alloc.Job;
  const group = job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  const allocated = alloc.AllocatedResources?.Tasks?.[task.Name];
  const v: Record<string, string> = {
    NOMAD_ALLOC_ID: alloc.ID,
    NOMAD_SHORT_ALLOC_ID: alloc.ID.slice(0, 8),
    NOMAD_ALLOC_NAME: alloc.Name,
    NOMAD_ALLOC_INDEX: allocIndex(alloc.Name),
    NOMAD_ALLOC_DIR: paths.allocDir,
    NOMAD_TASK_DIR: paths.taskDir,
    NOMAD_SECRETS_DIR: paths.secretsDir,
    NOMAD_TASK_NAME: task.Name,
    NOMAD_GROUP_NAME: alloc.TaskGroup,
    NOMAD_JOB_ID: job.ID,
    NOMAD_JOB_NAME: job.Name,
    NOMAD_JOB_PARENT_ID: job.ParentID,
    NOMAD_NAMESPACE: alloc.Namespace,
    NOMAD_REGION: job.Region,
    NOMAD_DC: node.Datacenter,
    NOMAD_CPU_LIMIT: String(allocated?.Cpu.CpuShares ?? task.Resources.CPU),
    NOMAD_MEMORY_LIMIT: String(allocated?.Memory.MemoryMB ?? task.Resources.MemoryMB),
  };
  const memoryMax = allocated?.Memory.MemoryMaxMB ?? task.Resources.MemoryMaxMB;
  if (memoryMax > 0) v.NOMAD_MEMORY_MAX_LIMIT = String(memoryMax);
  if (task.Resources.Cores > 0) v.NOMAD_CPU_CORES = String(task.Resources.Cores);

  for (const p of alloc.AllocatedResources?.Shared?.Ports ?? []) {
    // The task's port is the mapped one (`to`) when there is a mapping, else the host port.
    const port = p.To > 0 ? p.To : p.Value;
    v[`NOMAD_IP_${p.Label}`] = p.HostIP;
    v[`NOMAD_PORT_${p.Label}`] = String(port);
    v[`NOMAD_ADDR_${p.Label}`] = hostPort(p.HostIP, port);
    v[`NOMAD_ALLOC_PORT_${p.Label}`] = String(port);
    v[`NOMAD_HOST_IP_${p.Label}`] = p.HostIP;
    v[`NOMAD_HOST_PORT_${p.Label}`] = String(p.Value);
    v[`NOMAD_HOST_ADDR_${p.Label}`] = hostPort(p.HostIP, p.Value);
  }

  const meta = { ...job.Meta, ...group?.Meta, ...task.Meta };
  for (const [key, value] of Object.entries(meta)) {
    v[`NOMAD_META_${key}`] = value;
    v[`NOMAD_META_${key.toUpperCase()}`] = value;
  }
  return v;
}

/** Each NOMAD_X also as SVC_X, the product's own prefix. */
function withSvcAliases(vars: Record<string, string>): Record<string, string> {
  const out = { ...vars };
  for (const [k, v] of Object.entries(vars)) out[`SVC_${k.slice('NOMAD_'.length)}`] = v;
  return out;
}

/**
 * Replaces `${name}` in text. `name` is an environment variable of the task (`${NOMAD_PORT_http}`), a node
 * value (`${attr.kernel.name}`, `${node.unique.id}`, `${node.datacenter}`, `${node.class}`,
 * `${node.unique.name}`, `${meta.rack}`); anything else is left as written.
 */
export function interpolate(text: string, env: Record<string, string>, node: Node): string {
  return text.replace(/\$\{([^{}]+)\}/g, (whole, raw: string) => {
    const name = raw.trim();
    if (Object.hasOwn(env, name)) return env[name];
    if (/^(attr|meta|node)\./.test(name)) return nodeTarget(node, `\${${name}}`) ?? whole;
    return whole;
  });
}

/** Interpolates every string in a `config` block, however deep. */
export function interpolateConfig<T>(value: T, env: Record<string, string>, node: Node): T {
  if (typeof value === 'string') return interpolate(value, env, node) as T;
  if (Array.isArray(value)) return value.map((x) => interpolateConfig(x, env, node)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, interpolateConfig(x, env, node)])) as T;
  }
  return value;
}

/**
 * The complete environment: the host's (if inherited), then the client's variables, then the task's
 * `env` block with its values interpolated (so a task may rename or extend a NOMAD_ variable).
 */
export function buildTaskEnv(input: TaskEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.hostEnv ?? {})) if (v !== undefined) env[k] = v;
  Object.assign(env, withSvcAliases(nomadVars(input)));
  const own = Object.entries(input.task.Env ?? {}).map(([k, v]) => [k, interpolate(v, env, input.node)] as const);
  for (const [k, v] of own) env[k] = v;
  return env;
}
