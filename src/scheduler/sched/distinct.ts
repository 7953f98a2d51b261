/**
 * distinct_hosts and distinct_property: constraints on where the job's other allocations are, so they
 * are checked against the proposed allocations at each placement instead of being cached per node.
 */
import type { Constraint } from '../structs/constraint.js';
import type { Job } from '../structs/job.js';
import { nodeTarget, type Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';
import type { PropertyCounts, ProposedAllocs } from './proposed.js';

interface PropertyRule {
  target: string;
  /** how many allocations may share one value; NaN when RTarget is not a count, which nothing satisfies */
  limit: number;
  counts: PropertyCounts;
}

export interface DistinctRules {
  /** no two allocations of the job on a node */
  jobHosts: boolean;
  /** no two allocations of the group on a node */
  groupHosts: boolean;
  properties: PropertyRule[];
}

export function distinctRules(job: Job, group: TaskGroup, proposed: ProposedAllocs): DistinctRules {
  const groupLevel = [...(group.Constraints ?? []), ...group.Tasks.flatMap((t) => t.Constraints ?? [])];
  const rule = (c: Constraint, scope: string | null): PropertyRule => ({
    target: c.LTarget,
    limit: c.RTarget === '' ? 1 : /^\d+$/.test(c.RTarget) ? Number(c.RTarget) : NaN,
    counts: proposed.property(c.LTarget, scope),
  });
  return {
    jobHosts: (job.Constraints ?? []).some(hostsEnabled),
    groupHosts: groupLevel.some(hostsEnabled),
    properties: [
      ...(job.Constraints ?? []).filter(isProperty).map((c) => rule(c, null)),
      ...groupLevel.filter(isProperty).map((c) => rule(c, group.Name)),
    ],
  };
}

/** `distinct_hosts = false` switches it off; anything else that is not a boolean keeps it on, as in Nomad. */
function hostsEnabled(c: Constraint): boolean {
  return c.Operand === 'distinct_hosts' && !['0', 'f', 'false'].includes(c.RTarget.trim().toLowerCase());
}

function isProperty(c: Constraint): boolean {
  return c.Operand === 'distinct_property';
}

/** The operand that rules the node out (the ConstraintFiltered key Nomad uses), or null. */
export function distinctFailure(rules: DistinctRules, node: Node, group: string, proposed: ProposedAllocs): string | null {
  if (rules.jobHosts && proposed.onNode(node.ID) > 0) return 'distinct_hosts';
  if (rules.groupHosts && proposed.onNode(node.ID, group) > 0) return 'distinct_hosts';
  for (const p of rules.properties) {
    const value = nodeTarget(node, p.target);
    if (value === undefined || !(p.counts.get(value) < p.limit)) return 'distinct_property';
  }
  return null;
}
