/**
 * Maps the HCL block tree to Nomad's API job JSON (the shape `nomad job run -output` prints). The schema
 * below is the single list of what each block accepts; anything else is rejected with its block path,
 * as jobspec2 does, because a misspelt argument that is silently dropped is a job that runs wrongly.
 */
import { parseGoDurationNs } from './durations.js';
import { JobspecError } from './errors.js';
import { evaluateTop, isObject, typeName, type EvalContext } from './expressions.js';
import type { Attribute, Block, Body, Expr, SourceFile, Value } from '../shared/hcl/syntax.js';
import { hclArgumentsOf, type HclArgument } from '../scheduler/wire/job/fields.js';
import { AFFINITY as AFFINITY_FIELDS, CONSTRAINT as CONSTRAINT_FIELDS, SPREAD as SPREAD_FIELDS, SPREAD_TARGET } from '../scheduler/wire/job/placement.js';
import { CNI, DEVICE, DNS, NETWORK as NETWORK_FIELDS, NUMA, PORT as PORT_FIELDS, RESOURCES as RESOURCES_FIELDS } from '../scheduler/wire/job/resources.js';
import { CHECK as CHECK_FIELDS, CHECK_RESTART as CHECK_RESTART_FIELDS, SERVICE as SERVICE_FIELDS, SERVICE_WEIGHTS } from '../scheduler/wire/job/service.js';
import {
  ACTION,
  ARTIFACT as ARTIFACT_FIELDS,
  CHANGE_SCRIPT,
  CRON_WINDOW,
  DISPATCH_PAYLOAD,
  IDENTITY as IDENTITY_FIELDS,
  LIFECYCLE,
  LOG_CONFIG,
  SECRET as SECRET_FIELDS,
  TASK as TASK_FIELDS,
  TEMPLATE as TEMPLATE_FIELDS,
  TEMPLATE_WAIT,
  VAULT as VAULT_FIELDS,
  VOLUME_MOUNT,
} from '../scheduler/wire/job/task.js';
import { GROUP as GROUP_FIELDS, MOUNT_OPTIONS, VOLUME_REQUEST } from '../scheduler/wire/job/group.js';
import { JOB as JOB_FIELDS, JOB_UI, UI_LINK } from '../scheduler/wire/job/job.js';
import { DISCONNECT, EPHEMERAL_DISK, MIGRATE as MIGRATE_FIELDS, PARAMETERIZED as PARAMETERIZED_FIELDS, PERIODIC as PERIODIC_FIELDS, RESCHEDULE as RESCHEDULE_FIELDS, RESTART as RESTART_FIELDS, SCALING, UPDATE as UPDATE_FIELDS } from '../scheduler/wire/job/policies.js';

/** A loose view of Nomad's api.Job: PascalCase keys, durations in nanoseconds. */
export interface ApiJob {
  ID?: string;
  Name?: string;
  Type?: string;
  TaskGroups?: ApiObject[];
  [key: string]: unknown;
}
export type ApiObject = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------
// Bodies: native HCL, or HCL-JSON whose keys are only known to be blocks once the schema says so.

export type JsonTree = string | number | boolean | null | JsonTree[] | { [k: string]: JsonTree } | TemplateRef;

/** A JSON string, parsed lazily as a template over the shared text buffer. */
export class TemplateRef {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
}

export type BodyNode =
  | { kind: 'hcl'; body: Body; scope?: Map<string, Value> }
  | { kind: 'json'; value: { [k: string]: JsonTree }; parse: (start: number, end: number) => Expr };

interface AttrNode {
  kind: 'attr';
  name: string;
  expr: Expr;
  start: number;
  /** Iterator values from an enclosing `dynamic` block. */
  scope?: Map<string, Value>;
}
interface BlockNode {
  kind: 'block';
  type: string;
  labels: string[];
  body: BodyNode;
  start: number;
}

function jsonExpr(t: JsonTree, parse: (s: number, e: number) => Expr): Expr {
  if (t instanceof TemplateRef) return parse(t.start, t.end);
  if (Array.isArray(t)) return { k: 'tuple', items: t.map((i) => jsonExpr(i, parse)), start: 0, end: 0 };
  if (t !== null && typeof t === 'object') {
    return {
      k: 'object',
      items: Object.entries(t).map(([k, v]) => ({ key: { k: 'lit', v: k, start: 0, end: 0 }, value: jsonExpr(v, parse) })),
      start: 0,
      end: 0,
    };
  }
  return { k: 'lit', v: t, start: 0, end: 0 };
}

function jsonBlocks(type: string, v: JsonTree, labelCount: number, labels: string[], parse: (s: number, e: number) => Expr, path: string): BlockNode[] {
  if (Array.isArray(v)) return v.flatMap((item) => jsonBlocks(type, item, labelCount, labels, parse, path));
  if (v === null || typeof v !== 'object' || v instanceof TemplateRef) {
    throw new JobspecError(`${path}: "${type}" must be an object (a block)`);
  }
  if (labelCount === 0) return [{ kind: 'block', type, labels, body: { kind: 'json', value: v, parse }, start: 0 }];
  return Object.entries(v).flatMap(([k, inner]) => jsonBlocks(type, inner, labelCount - 1, [...labels, k], parse, path));
}

export function bodyItems(
  b: BodyNode,
  blockLabels: (name: string) => number | undefined,
  path: string,
  expandDynamic?: (block: Block, scope: Map<string, Value> | undefined) => BlockNode[],
): Array<AttrNode | BlockNode> {
  if (b.kind === 'hcl') {
    return b.body.items.flatMap((i: Attribute | Block): Array<AttrNode | BlockNode> => {
      if (i.kind === 'attr') return [{ kind: 'attr', name: i.name, expr: i.expr, start: i.start, scope: b.scope }];
      if (i.type === 'dynamic' && expandDynamic) return expandDynamic(i, b.scope);
      return [{ kind: 'block', type: i.type, labels: i.labels, body: { kind: 'hcl', body: i.body, scope: b.scope }, start: i.start }];
    });
  }
  const out: Array<AttrNode | BlockNode> = [];
  for (const [key, v] of Object.entries(b.value)) {
    const labels = blockLabels(key);
    if (labels === undefined) out.push({ kind: 'attr', name: key, expr: jsonExpr(v, b.parse), start: 0 });
    else out.push(...jsonBlocks(key, v, labels, [], b.parse, path));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Schema.

type AttrType = HclArgument['type'];
type AttrSpec = HclArgument;

interface BlockSpec {
  json: string;
  schema: Schema | 'freeform' | 'stringMap' | 'stringListMap';
  labels?: 0 | 1;
  /** JSON field that receives the label (default `Name`). */
  labelField?: string;
  /** Repeated blocks become an array; otherwise a second block is an error. */
  multi?: boolean;
  /** Output a map keyed by label instead of an array (group volumes). */
  keyed?: boolean;
}

/**
 * A name may appear in both `attrs` and `blocks` where Nomad accepts either form (`meta {}` and
 * `meta = {}`); HCL-JSON, which cannot tell them apart, reads such a key as the block.
 */
interface Schema {
  attrs: Record<string, AttrSpec>;
  blocks: Record<string, BlockSpec>;
  /** Normalisation jobspec2 applies after decoding (port split, template defaults, ...). */
  post?: (out: ApiObject, m: Mapper, path: string) => void;
}

const a = (json: string, type: AttrType = 'string'): AttrSpec => ({ json, type });

const META: BlockSpec = { json: 'Meta', schema: 'stringMap' };

const CONSTRAINT_OPERANDS = ['distinct_hosts', 'distinct_property', 'regexp', 'version', 'semver', 'set_contains', 'set_contains_all', 'set_contains_any', 'is_set', 'is_not_set'];

const CONSTRAINT: Schema = {
  attrs: {
    ...hclArgumentsOf(CONSTRAINT_FIELDS),
    ...Object.fromEntries(CONSTRAINT_OPERANDS.map((op) => [op, a(`__${op}`, 'any')])),
  },
  blocks: {},
  post: (out, m, path) => {
    for (const op of CONSTRAINT_OPERANDS) {
      const key = `__${op}`;
      if (!(key in out)) continue;
      const v = out[key] as Value;
      delete out[key];
      if (op === 'distinct_hosts') {
        if (!m.toBool(v, path, op)) continue;
        out.Operand = op;
        out.RTarget = 'true';
      } else if (op === 'distinct_property') {
        out.Operand = op;
        out.LTarget = m.toStr(v, path, op);
      } else if (op === 'is_set' || op === 'is_not_set') {
        out.Operand = op;
      } else {
        out.Operand = op;
        out.RTarget = m.toStr(v, path, op);
      }
    }
    out.Operand ??= '=';
  },
};

const AFFINITY: Schema = {
  attrs: hclArgumentsOf(AFFINITY_FIELDS),
  blocks: {},
  post: (out) => {
    out.Operand ??= '=';
  },
};

const SPREAD: Schema = {
  attrs: hclArgumentsOf(SPREAD_FIELDS),
  blocks: { target: { json: 'SpreadTarget', labels: 1, labelField: 'Value', multi: true, schema: { attrs: hclArgumentsOf(SPREAD_TARGET), blocks: {} } } },
};

const RESTART: Schema = {
  attrs: hclArgumentsOf(RESTART_FIELDS),
  blocks: {},
};

const RESCHEDULE: Schema = {
  attrs: hclArgumentsOf(RESCHEDULE_FIELDS),
  blocks: {},
};

const UPDATE: Schema = {
  attrs: hclArgumentsOf(UPDATE_FIELDS),
  blocks: {},
};

const MIGRATE: Schema = {
  attrs: hclArgumentsOf(MIGRATE_FIELDS),
  blocks: {},
};

const PERIODIC: Schema = {
  attrs: hclArgumentsOf(PERIODIC_FIELDS),
  blocks: {},
  post: (out) => {
    out.SpecType = PERIODIC_FIELDS.SpecType.default;
  },
};

const PARAMETERIZED: Schema = {
  attrs: hclArgumentsOf(PARAMETERIZED_FIELDS),
  blocks: {},
};

const VAULT: Schema = {
  attrs: hclArgumentsOf(VAULT_FIELDS),
  blocks: {},
  post: (out) => {
    out.Env ??= VAULT_FIELDS.Env.default;
    out.DisableFile ??= false;
    out.ChangeMode ??= VAULT_FIELDS.ChangeMode.default;
  },
};

const SECRET: BlockSpec = {
  json: 'Secrets',
  labels: 1,
  multi: true,
  schema: { attrs: hclArgumentsOf(SECRET_FIELDS), blocks: { config: { json: 'Config', schema: 'freeform' }, env: { json: 'Env', schema: 'stringMap' } } },
};

const CHECK_RESTART: Schema = {
  attrs: hclArgumentsOf(CHECK_RESTART_FIELDS),
  blocks: {},
};

const CHECK: Schema = {
  attrs: hclArgumentsOf(CHECK_FIELDS),
  blocks: {
    header: { json: 'Header', schema: 'stringListMap' },
    check_restart: { json: 'CheckRestart', schema: CHECK_RESTART },
  },
};

const IDENTITY: Schema = {
  attrs: hclArgumentsOf(IDENTITY_FIELDS),
  blocks: {},
};

const SERVICE: Schema = {
  attrs: hclArgumentsOf(SERVICE_FIELDS),
  blocks: {
    meta: META,
    canary_meta: { json: 'CanaryMeta', schema: 'stringMap' },
    tagged_addresses: { json: 'TaggedAddresses', schema: 'stringMap' },
    weights: { json: 'Weights', schema: { attrs: hclArgumentsOf(SERVICE_WEIGHTS), blocks: {} } },
    identity: { json: 'Identity', schema: IDENTITY },
    connect: { json: 'Connect', schema: 'freeform' },
    check_restart: { json: '__check_restart', schema: CHECK_RESTART },
    check: { json: 'Checks', multi: true, schema: CHECK },
  },
  post: (out) => {
    // A service-level check_restart applies to each of its checks that does not set its own.
    const cr = out.__check_restart;
    delete out.__check_restart;
    if (cr && Array.isArray(out.Checks)) for (const c of out.Checks as ApiObject[]) c.CheckRestart ??= { ...(cr as ApiObject) };
  },
};

const PORT: Schema = {
  attrs: hclArgumentsOf(PORT_FIELDS),
  blocks: {},
};

const NETWORK: Schema = {
  attrs: hclArgumentsOf(NETWORK_FIELDS),
  blocks: {
    port: { json: '__ports', labels: 1, labelField: 'Label', multi: true, schema: PORT },
    dns: { json: 'DNS', schema: { attrs: hclArgumentsOf(DNS), blocks: {} } },
    cni: { json: 'CNI', schema: { attrs: hclArgumentsOf(CNI), blocks: { args: { json: 'Args', schema: 'stringMap' } } } },
  },
  post: (out) => {
    // Ports with a static value are reserved; the rest are allocated by the scheduler.
    const ports = (out.__ports as ApiObject[] | undefined) ?? [];
    delete out.__ports;
    const reserved = ports.filter((p) => typeof p.Value === 'number' && p.Value > 0);
    const dynamic = ports.filter((p) => !reserved.includes(p));
    if (reserved.length) out.ReservedPorts = reserved;
    if (dynamic.length) out.DynamicPorts = dynamic;
  },
};

const RESOURCES: Schema = {
  attrs: hclArgumentsOf(RESOURCES_FIELDS),
  blocks: {
    network: { json: 'Networks', multi: true, schema: NETWORK },
    device: {
      json: 'Devices',
      labels: 1,
      multi: true,
      schema: { attrs: hclArgumentsOf(DEVICE), blocks: { constraint: { json: 'Constraints', multi: true, schema: CONSTRAINT }, affinity: { json: 'Affinities', multi: true, schema: AFFINITY } } },
    },
    numa: { json: 'NUMA', schema: { attrs: hclArgumentsOf(NUMA), blocks: {} } },
  },
};

const TEMPLATE: Schema = {
  attrs: hclArgumentsOf(TEMPLATE_FIELDS),
  blocks: {
    change_script: {
      json: 'ChangeScript',
      schema: { attrs: hclArgumentsOf(CHANGE_SCRIPT), blocks: {} },
    },
    wait: { json: 'Wait', schema: { attrs: hclArgumentsOf(TEMPLATE_WAIT), blocks: {} } },
  },
  post: (out) => {
    out.ChangeMode ??= TEMPLATE_FIELDS.ChangeMode.default;
    out.Perms ??= TEMPLATE_FIELDS.Perms.default;
    out.Splay ??= TEMPLATE_FIELDS.Splay.default;
    out.ErrMissingKey ??= false;
  },
};

const ARTIFACT: Schema = {
  attrs: hclArgumentsOf(ARTIFACT_FIELDS),
  blocks: { options: { json: 'GetterOptions', schema: 'stringMap' }, headers: { json: 'GetterHeaders', schema: 'stringMap' } },
};

const TASK: Schema = {
  attrs: hclArgumentsOf(TASK_FIELDS),
  blocks: {
    config: { json: 'Config', schema: 'freeform' },
    env: { json: 'Env', schema: 'stringMap' },
    meta: META,
    resources: { json: 'Resources', schema: RESOURCES },
    restart: { json: 'RestartPolicy', schema: RESTART },
    lifecycle: { json: 'Lifecycle', schema: { attrs: hclArgumentsOf(LIFECYCLE), blocks: {} } },
    // `enabled` is accepted as jobspec2 does; the server keeps only `disabled`.
    logs: { json: 'LogConfig', schema: { attrs: { ...hclArgumentsOf(LOG_CONFIG), enabled: a('Enabled', 'bool') }, blocks: {} } },
    artifact: { json: 'Artifacts', multi: true, schema: ARTIFACT },
    template: { json: 'Templates', multi: true, schema: TEMPLATE },
    vault: { json: 'Vault', schema: VAULT },
    consul: { json: 'Consul', schema: { attrs: { namespace: a('Namespace'), cluster: a('Cluster'), partition: a('Partition') }, blocks: {} } },
    service: { json: 'Services', multi: true, schema: SERVICE },
    constraint: { json: 'Constraints', multi: true, schema: CONSTRAINT },
    affinity: { json: 'Affinities', multi: true, schema: AFFINITY },
    dispatch_payload: { json: 'DispatchPayload', schema: { attrs: hclArgumentsOf(DISPATCH_PAYLOAD), blocks: {} } },
    volume_mount: {
      json: 'VolumeMounts',
      multi: true,
      schema: { attrs: hclArgumentsOf(VOLUME_MOUNT), blocks: {} },
    },
    csi_plugin: {
      json: 'CSIPluginConfig',
      schema: { attrs: { id: a('ID'), type: a('Type'), mount_dir: a('MountDir'), stage_publish_base_dir: a('StagePublishBaseDir'), health_timeout: a('HealthTimeout', 'duration') }, blocks: {} },
    },
    identity: { json: '__identities', multi: true, schema: IDENTITY },
    action: { json: 'Actions', labels: 1, multi: true, schema: { attrs: hclArgumentsOf(ACTION), blocks: {} } },
    schedule: {
      json: 'Schedule',
      schema: { attrs: {}, blocks: { cron: { json: 'Cron', schema: { attrs: hclArgumentsOf(CRON_WINDOW), blocks: {} } } } },
    },
    secret: SECRET,
  },
  post: (out) => {
    // An identity without a name (or named "default") is the task's default identity; others are extra.
    const ids = (out.__identities as ApiObject[] | undefined) ?? [];
    delete out.__identities;
    for (const id of ids) {
      if (id.Name === undefined || id.Name === 'default') out.Identity = id;
      else ((out.Identities ??= []) as ApiObject[]).push(id);
    }
  },
};

const GROUP: Schema = {
  attrs: hclArgumentsOf(GROUP_FIELDS),
  blocks: {
    constraint: { json: 'Constraints', multi: true, schema: CONSTRAINT },
    affinity: { json: 'Affinities', multi: true, schema: AFFINITY },
    spread: { json: 'Spreads', multi: true, schema: SPREAD },
    restart: { json: 'RestartPolicy', schema: RESTART },
    reschedule: { json: 'ReschedulePolicy', schema: RESCHEDULE },
    update: { json: 'Update', schema: UPDATE },
    migrate: { json: 'Migrate', schema: MIGRATE },
    ephemeral_disk: { json: 'EphemeralDisk', schema: { attrs: hclArgumentsOf(EPHEMERAL_DISK), blocks: {} } },
    network: { json: 'Networks', multi: true, schema: NETWORK },
    service: { json: 'Services', multi: true, schema: SERVICE },
    volume: {
      json: 'Volumes',
      labels: 1,
      keyed: true,
      schema: {
        attrs: hclArgumentsOf(VOLUME_REQUEST),
        blocks: { mount_options: { json: 'MountOptions', schema: { attrs: hclArgumentsOf(MOUNT_OPTIONS), blocks: {} } } },
      },
    },
    scaling: {
      json: 'Scaling',
      schema: { attrs: hclArgumentsOf(SCALING), blocks: { policy: { json: 'Policy', schema: 'freeform' } } },
    },
    consul: { json: 'Consul', schema: { attrs: { namespace: a('Namespace'), cluster: a('Cluster'), partition: a('Partition') }, blocks: {} } },
    disconnect: {
      json: 'Disconnect',
      schema: { attrs: hclArgumentsOf(DISCONNECT), blocks: {} },
    },
    meta: META,
    vault: { json: '__vault', schema: VAULT },
    secret: { ...SECRET, json: '__secrets' },
    task: { json: 'Tasks', labels: 1, multi: true, schema: TASK },
  },
  post: (out) => {
    // A scaling block's min stands in for an unset count, as jobspec2 does.
    const scaling = out.Scaling as ApiObject | undefined;
    if (out.Count === undefined && scaling && typeof scaling.Min === 'number') out.Count = scaling.Min;
    inheritVaultAndSecrets(out, out.__vault as ApiObject | undefined, out.__secrets as ApiObject[] | undefined);
    delete out.__vault;
    delete out.__secrets;
  },
};

/** Group- or job-level vault/secret blocks apply to each task that does not declare its own. */
function inheritVaultAndSecrets(group: ApiObject, vault: ApiObject | undefined, secrets: ApiObject[] | undefined): void {
  for (const task of (group.Tasks as ApiObject[] | undefined) ?? []) {
    if (vault && task.Vault === undefined) task.Vault = structuredClone(vault);
    if (secrets?.length) {
      const own = (task.Secrets as ApiObject[] | undefined) ?? [];
      const names = new Set(own.map((s) => s.Name));
      const added = secrets.filter((s) => !names.has(s.Name)).map((s) => structuredClone(s));
      if (added.length) task.Secrets = [...own, ...added];
    }
  }
}

const JOB: Schema = {
  attrs: hclArgumentsOf(JOB_FIELDS),
  blocks: {
    constraint: { json: 'Constraints', multi: true, schema: CONSTRAINT },
    affinity: { json: 'Affinities', multi: true, schema: AFFINITY },
    spread: { json: 'Spreads', multi: true, schema: SPREAD },
    update: { json: 'Update', schema: UPDATE },
    periodic: { json: 'Periodic', schema: PERIODIC },
    parameterized: { json: 'ParameterizedJob', schema: PARAMETERIZED },
    reschedule: { json: 'Reschedule', schema: RESCHEDULE },
    migrate: { json: 'Migrate', schema: MIGRATE },
    multiregion: {
      json: 'Multiregion',
      schema: {
        attrs: {},
        blocks: {
          strategy: { json: 'Strategy', schema: { attrs: { max_parallel: a('MaxParallel', 'int'), on_failure: a('OnFailure') }, blocks: {} } },
          region: { json: 'Regions', labels: 1, multi: true, schema: { attrs: { count: a('Count', 'int'), datacenters: a('Datacenters', 'strings'), node_pool: a('NodePool'), meta: a('Meta', 'stringMap') }, blocks: { meta: META } } },
        },
      },
    },
    ui: {
      json: 'UI',
      schema: { attrs: hclArgumentsOf(JOB_UI), blocks: { link: { json: 'Links', multi: true, schema: { attrs: { ...hclArgumentsOf(UI_LINK), url: a('URL') }, blocks: {} } } } },
    },
    meta: META,
    group: { json: 'TaskGroups', labels: 1, multi: true, schema: GROUP },
    task: { json: '__tasks', labels: 1, multi: true, schema: TASK },
    vault: { json: '__vault', schema: VAULT },
    secret: { ...SECRET, json: '__secrets' },
  },
  post: (out) => {
    // Job-level tasks become groups of one, ahead of the declared groups, as jobspec2 places them.
    const tasks = (out.__tasks as ApiObject[] | undefined) ?? [];
    delete out.__tasks;
    const wrapped = tasks.map((t) => ({ Name: t.Name, Count: 1, Tasks: [t] }));
    const groups = [...wrapped, ...((out.TaskGroups as ApiObject[] | undefined) ?? [])];
    if (groups.length) out.TaskGroups = groups;
    for (const g of groups) inheritVaultAndSecrets(g, out.__vault as ApiObject | undefined, out.__secrets as ApiObject[] | undefined);
    delete out.__vault;
    delete out.__secrets;
  },
};

// ---------------------------------------------------------------------------------------------------
// The mapper.

function describe(type: string, labels: string[]): string {
  return [type, ...labels.map((l) => JSON.stringify(l))].join(' ');
}

export class Mapper {
  constructor(
    private readonly ctx: EvalContext,
    private readonly source: SourceFile,
  ) {}

  private where(at: number): string {
    const p = this.source.lines.pos(at);
    return p.line > 0 ? ` (${p.file}:${p.line}:${p.column})` : '';
  }

  schemaError(path: string, message: string, at?: number): never {
    throw new JobspecError(`${path}: ${message}${at === undefined ? '' : this.where(at)}`);
  }

  toStr(v: Value, path: string, name: string, at?: number): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return this.schemaError(path, `argument "${name}" must be a string, got ${typeName(v)}`, at);
  }

  toBool(v: Value, path: string, name: string, at?: number): boolean {
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    return this.schemaError(path, `argument "${name}" must be a bool, got ${typeName(v)} ${JSON.stringify(v)}`, at);
  }

  private convert(v: Value, type: AttrType, path: string, name: string, at?: number): unknown {
    switch (type) {
      case 'string':
        return this.toStr(v, path, name, at);
      case 'bool':
        return this.toBool(v, path, name, at);
      case 'int':
      case 'number': {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (Number.isNaN(n)) return this.schemaError(path, `argument "${name}" must be a number, got ${typeName(v)} ${JSON.stringify(v)}`, at);
        if (type === 'int' && !Number.isInteger(n)) return this.schemaError(path, `argument "${name}" must be a whole number, got ${n}`, at);
        return n;
      }
      case 'duration': {
        if (typeof v === 'number') return Math.round(v);
        const ns = typeof v === 'string' ? parseGoDurationNs(v) : undefined;
        if (ns === undefined) return this.schemaError(path, `argument "${name}" must be a duration such as "30s" or "1h30m", got ${JSON.stringify(v)}`, at);
        return ns;
      }
      case 'strings':
        if (!Array.isArray(v)) return this.schemaError(path, `argument "${name}" must be a list of strings, got ${typeName(v)}`, at);
        return v.map((item) => this.toStr(item, path, name, at));
      case 'stringMap':
        if (!isObject(v)) return this.schemaError(path, `argument "${name}" must be a map, got ${typeName(v)}`, at);
        return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, this.toStr(item, path, `${name}.${k}`, at)]));
      case 'stringListMap':
        if (!isObject(v)) return this.schemaError(path, `argument "${name}" must be a map of lists, got ${typeName(v)}`, at);
        return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, Array.isArray(item) ? item.map((i) => this.toStr(i, path, name, at)) : [this.toStr(item, path, name, at)]]));
      case 'any':
        return v;
    }
  }

  eval(expr: Expr, scope?: Map<string, Value>): Value {
    return evaluateTop(scope ? { ...this.ctx, scope } : this.ctx, expr);
  }

  /**
   * `dynamic "<type>" { for_each, iterator, labels, content {} }` generates one block per element,
   * with `<iterator>.key` and `<iterator>.value` in scope inside content (iterator defaults to the type).
   */
  private expandDynamic(path: string, block: Block, scope: Map<string, Value> | undefined): BlockNode[] {
    const where = `${path} > ${describe('dynamic', block.labels)}`;
    if (block.labels.length !== 1) this.schemaError(path, 'a dynamic block needs exactly one label: the type of block to generate', block.start);
    const type = block.labels[0];
    let forEach: Attribute | undefined;
    let labelsAttr: Attribute | undefined;
    let iterator = type;
    let content: Block | undefined;
    for (const item of block.body.items) {
      if (item.kind === 'block') {
        if (item.type !== 'content') this.schemaError(where, `unsupported block type "${item.type}"`, item.start);
        if (content) this.schemaError(where, 'only one "content" block is allowed', item.start);
        content = item;
      } else if (item.name === 'for_each') forEach = item;
      else if (item.name === 'labels') labelsAttr = item;
      else if (item.name === 'iterator') {
        if (item.expr.k !== 'ref') this.schemaError(where, 'argument "iterator" must be a bare name', item.start);
        iterator = item.expr.name;
      } else this.schemaError(where, `unsupported argument "${item.name}"`, item.start);
    }
    if (!forEach) return this.schemaError(where, 'missing required argument "for_each"', block.start);
    if (!content) return this.schemaError(where, 'missing required block "content"', block.start);
    const coll = this.eval(forEach.expr, scope);
    let entries: Array<[Value, Value]>;
    if (Array.isArray(coll)) entries = coll.map((v, i) => [i, v]);
    else if (isObject(coll)) entries = Object.keys(coll).sort().map((k) => [k, coll[k]]);
    else if (coll === null) entries = [];
    else return this.schemaError(where, `argument "for_each" must be a list or map, got ${typeName(coll)}`, forEach.start);
    return entries.map(([key, value]) => {
      const inner = new Map(scope ?? this.ctx.scope);
      inner.set(iterator, { key, value });
      const labelValues = labelsAttr ? this.eval(labelsAttr.expr, inner) : [];
      if (!Array.isArray(labelValues)) return this.schemaError(where, 'argument "labels" must be a list of strings', labelsAttr!.start);
      const labels = labelValues.map((l) => this.toStr(l, where, 'labels'));
      return { kind: 'block', type, labels, body: { kind: 'hcl', body: content.body, scope: inner }, start: block.start };
    });
  }

  /** Maps one block body per its schema. */
  mapBody(body: BodyNode, schema: Schema, path: string): ApiObject {
    const out: ApiObject = {};
    const items = bodyItems(
      body,
      (name) => (name in schema.blocks ? (schema.blocks[name].labels ?? 0) : undefined),
      path,
      (b, scope) => this.expandDynamic(path, b, scope),
    );
    for (const item of items) {
      if (item.kind === 'attr') {
        const spec = schema.attrs[item.name];
        if (!spec) this.schemaError(path, `unsupported argument "${item.name}"`, item.start);
        if (spec.json in out) this.schemaError(path, `argument "${item.name}" is set more than once`, item.start);
        const v = this.eval(item.expr, item.scope);
        if (v === null) continue;
        out[spec.json] = this.convert(v, spec.type, path, item.name, item.start);
        continue;
      }
      const spec = schema.blocks[item.type];
      if (!spec) this.schemaError(path, `unsupported block type "${item.type}"`, item.start);
      const want = spec.labels ?? 0;
      if (item.labels.length !== want) {
        this.schemaError(path, `block "${item.type}" needs ${want === 0 ? 'no labels' : `exactly ${want} label (its name)`}, got ${item.labels.length}`, item.start);
      }
      const childPath = `${path} > ${describe(item.type, item.labels)}`;
      let value: unknown;
      if (spec.schema === 'freeform') value = this.freeform(item.body, childPath);
      else if (spec.schema === 'stringMap' || spec.schema === 'stringListMap') value = this.convert(this.freeform(item.body, childPath), spec.schema, childPath, item.type);
      else {
        const mapped = this.mapBody(item.body, spec.schema, childPath);
        // The label leads so the JSON reads like Nomad's, where the name is the first field shown.
        const obj: ApiObject = want === 1 ? { [spec.labelField ?? 'Name']: item.labels[0], ...mapped } : mapped;
        spec.schema.post?.(obj, this, childPath);
        value = obj;
      }
      if (spec.keyed) {
        const map = (out[spec.json] ??= {}) as ApiObject;
        if (item.labels[0] in map) this.schemaError(path, `duplicate ${describe(item.type, item.labels)} block`, item.start);
        map[item.labels[0]] = value;
      } else if (spec.multi) {
        const list = (out[spec.json] ??= []) as unknown[];
        if (want === 1 && list.some((o) => (o as ApiObject)[spec.labelField ?? 'Name'] === item.labels[0])) {
          this.schemaError(path, `duplicate ${describe(item.type, item.labels)} block`, item.start);
        }
        list.push(value);
      } else {
        if (spec.json in out) this.schemaError(path, `only one "${item.type}" block is allowed`, item.start);
        out[spec.json] = value;
      }
    }
    return out;
  }

  /** Driver config and similar: attributes as they are, nested blocks as lists of maps. */
  freeform(body: BodyNode, path: string): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (const item of bodyItems(body, () => undefined, path, (b, scope) => this.expandDynamic(path, b, scope))) {
      if (item.kind === 'attr') {
        out[item.name] = this.eval(item.expr, item.scope);
        continue;
      }
      let inner: Value = this.freeform(item.body, `${path} > ${describe(item.type, item.labels)}`);
      for (const label of [...item.labels].reverse()) inner = { [label]: inner };
      ((out[item.type] ??= []) as Value[]).push(inner);
    }
    return out;
  }

  mapJob(block: { labels: string[]; body: BodyNode }): ApiJob {
    const path = describe('job', block.labels);
    const job = this.mapBody(block.body, JOB, path) as ApiJob;
    job.Name ??= block.labels[0];
    job.ID ??= block.labels[0];
    JOB.post?.(job, this, path);
    const ordered: ApiJob = { ID: job.ID, Name: job.Name };
    return Object.assign(ordered, job);
  }
}
