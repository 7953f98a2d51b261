/**
 * Whether a node can run a task group at all, before resources are counted: the node's datacenter and
 * pool, the tasks' drivers, host volumes, and the constraints of the job, the group and its tasks. The
 * distinct_* constraints depend on what the plan places, so distinct.ts checks them per placement.
 */
import type { Constraint } from '../structs/constraint.js';
import type { Job } from '../structs/job.js';
import { nodeSchedulable, nodeTarget, type Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';
import { checkOperand } from './operands.js';
import type { NodeCapacity } from './capacity.js';

const MISSING_DRIVERS = 'missing drivers';
const MISSING_HOST_VOLUMES = 'missing compatible host volumes';
const DYNAMIC_OPERANDS = new Set(['distinct_hosts', 'distinct_property']);

/** The nodes a job may use: ready, eligible, in one of its datacenters and in its pool. */
export interface CandidateNodes {
  nodes: Node[];
  /** ready nodes per datacenter, Nomad's NodesAvailable */
  byDatacenter: Record<string, number>;
  /** ready nodes of the pool in any datacenter */
  inPool: number;
  /** node ID → its index in `nodes` */
  position: Map<string, number>;
  /** each node's capacity, computed on first use and kept as long as these candidates are */
  capacity: (NodeCapacity | undefined)[];
}

export function candidateNodes(all: Node[], job: Pick<Job, 'Datacenters' | 'NodePool'>): CandidateNodes {
  const dcs = job.Datacenters.map(globMatcher);
  const out: CandidateNodes = { nodes: [], byDatacenter: {}, inPool: 0, position: new Map(), capacity: [] };
  for (const node of all) {
    if (!nodeSchedulable(node) || !inPool(node, job.NodePool)) continue;
    out.inPool++;
    if (!dcs.some((m) => m(node.Datacenter))) continue;
    out.position.set(node.ID, out.nodes.length);
    out.nodes.push(node);
    out.byDatacenter[node.Datacenter] = (out.byDatacenter[node.Datacenter] ?? 0) + 1;
  }
  return out;
}

export function inPool(node: Pick<Node, 'NodePool'>, pool: string): boolean {
  return pool === 'all' || node.NodePool === (pool || 'default');
}

export function inDatacenters(node: Pick<Node, 'Datacenter'>, datacenters: string[]): boolean {
  return datacenters.some((dc) => globMatcher(dc)(node.Datacenter));
}

/** Datacenter patterns accept `*` anywhere (`us-*`), as Nomad's glob matching does. */
function globMatcher(pattern: string): (value: string) => boolean {
  if (!pattern.includes('*')) return (v) => v === pattern;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return (v) => re.test(v);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Nomad's Constraint.String(): the key of ConstraintFiltered. */
function constraintKey(c: Constraint): string {
  return `${c.LTarget} ${c.Operand} ${c.RTarget}`;
}

/** The static checks of one group of one job, with each node's answer kept for the evaluation. */
export class GroupFeasibility {
  private readonly jobConstraints: Constraint[];
  private readonly groupConstraints: Constraint[];
  private readonly drivers: string[];
  private readonly cache = new Map<string, string | null>();

  constructor(
    job: Job,
    private readonly group: TaskGroup,
  ) {
    this.jobConstraints = staticOnly(job.Constraints);
    this.groupConstraints = staticOnly([...(group.Constraints ?? []), ...group.Tasks.flatMap((t) => t.Constraints ?? [])]);
    this.drivers = [...new Set(group.Tasks.map((t) => t.Driver))];
  }

  /** Null when the node can run the group, else the reason Nomad's metrics name it by. */
  check(node: Node): string | null {
    let reason = this.cache.get(node.ID);
    if (reason === undefined) {
      reason = this.evaluate(node);
      this.cache.set(node.ID, reason);
    }
    return reason;
  }

  private evaluate(node: Node): string | null {
    // Nomad's order: job constraints, then drivers (cheap), then the group's and tasks' constraints.
    const failed = failedConstraint(node, this.jobConstraints);
    if (failed) return failed;
    if (!this.drivers.every((d) => driverUsable(node, d))) return MISSING_DRIVERS;
    return failedConstraint(node, this.groupConstraints) ?? (hostVolumesPresent(node, this.group) ? null : MISSING_HOST_VOLUMES);
  }
}

function staticOnly(list: Constraint[] | null): Constraint[] {
  return (list ?? []).filter((c) => !DYNAMIC_OPERANDS.has(c.Operand));
}

function failedConstraint(node: Node, list: Constraint[]): string | null {
  for (const c of list) {
    if (!checkOperand(c.Operand, nodeTarget(node, c.LTarget), nodeTarget(node, c.RTarget))) return constraintKey(c);
  }
  return null;
}

/** Detected and healthy; nodes that report drivers only as `driver.<name>` attributes count too. */
function driverUsable(node: Node, driver: string): boolean {
  const info = node.Drivers?.[driver];
  if (info) return info.Detected && info.Healthy;
  const attr = node.Attributes[`driver.${driver}`];
  return attr === '1' || attr === 'true';
}

function hostVolumesPresent(node: Node, group: TaskGroup): boolean {
  for (const v of Object.values(group.Volumes ?? {})) {
    if (v.Type !== 'host') continue;
    const hv = node.HostVolumes?.[v.Source];
    if (!hv || (hv.ReadOnly && !v.ReadOnly)) return false;
  }
  return true;
}
