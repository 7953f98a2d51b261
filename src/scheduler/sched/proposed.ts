/**
 * Where the job's allocations would be once the plan applies: its live allocations, less those the plan
 * stops, plus those it places. Anti-affinity, distinct_hosts, distinct_property and spread all ask this.
 * Counts per property value are kept incrementally, so a check costs a map lookup, not a walk.
 */
import { nodeTarget, type Node } from '../structs/node.js';

/** Counts of the job's allocations (of one group, or of all groups) per value of a node property. */
export class PropertyCounts {
  readonly counts = new Map<string, number>();

  constructor(
    readonly target: string,
    readonly group: string | null,
  ) {}

  get(value: string): number {
    return this.counts.get(value) ?? 0;
  }

  change(node: Node, group: string, delta: number): void {
    if (this.group !== null && this.group !== group) return;
    const value = nodeTarget(node, this.target);
    if (value === undefined) return;
    this.counts.set(value, this.get(value) + delta);
  }
}

export class ProposedAllocs {
  /** node ID → group → live allocations of the job */
  private readonly byNode = new Map<string, Map<string, number>>();
  private readonly properties = new Map<string, PropertyCounts>();

  constructor(private readonly nodeOf: (id: string) => Node | undefined) {}

  change(nodeId: string, group: string, delta: 1 | -1): void {
    let groups = this.byNode.get(nodeId);
    if (!groups) this.byNode.set(nodeId, (groups = new Map()));
    groups.set(group, (groups.get(group) ?? 0) + delta);
    if (this.properties.size === 0) return;
    const node = this.nodeOf(nodeId);
    if (node) for (const p of this.properties.values()) p.change(node, group, delta);
  }

  onNode(nodeId: string, group?: string): number {
    const groups = this.byNode.get(nodeId);
    if (!groups) return 0;
    if (group !== undefined) return groups.get(group) ?? 0;
    let n = 0;
    for (const c of groups.values()) n += c;
    return n;
  }

  /** The counts for a property, built from the current allocations the first time it is asked for. */
  property(target: string, group: string | null): PropertyCounts {
    const key = `${group ?? ''}\u0000${target}`;
    let p = this.properties.get(key);
    if (!p) {
      p = new PropertyCounts(target, group);
      for (const [nodeId, groups] of this.byNode) {
        const node = this.nodeOf(nodeId);
        if (node) for (const [g, n] of groups) p.change(node, g, n);
      }
      this.properties.set(key, p);
    }
    return p;
  }
}
