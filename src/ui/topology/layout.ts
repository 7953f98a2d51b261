/**
 * The topology's geometry, computed once per change of the nodes, the allocations or the width, and
 * free of the DOM: datacenters one under another, each a heading and rows of node boxes; a box's width
 * grows with the node's memory, and it holds two bars, CPU over memory, filled by its allocations in
 * proportion to what each was given of what the node offers. Boxes shrink as the cluster grows, so
 * 5,000 nodes still fit a few screens. Hit-testing finds the row by bisection, then the box, then the
 * allocation in the bar under the point: a few comparisons whatever the cluster's size.
 */
import type { AllocWithResources, NodeWithResources } from './types.js';

export interface Segment {
  alloc: AllocWithResources;
  /** the allocation's CPU (MHz) and memory (MiB) */
  cpu: number;
  memory: number;
  /** x and width within the CPU bar and within the memory bar, in the page's pixels */
  cpuX: number;
  cpuW: number;
  memX: number;
  memW: number;
}

export interface Bar {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface NodeBox {
  node: NodeWithResources;
  x: number;
  y: number;
  w: number;
  h: number;
  /** what allocations may use: the node's resources less what it reserves */
  cpu: number;
  memory: number;
  usedCpu: number;
  usedMemory: number;
  /** where the name is written; undefined when boxes are too small for it */
  label?: { x: number; y: number; w: number };
  cpuBar: Bar;
  memBar: Bar;
  segments: Segment[];
}

export interface Heading {
  datacenter: string;
  x: number;
  y: number;
  nodes: number;
  cpu: number;
  usedCpu: number;
  memory: number;
  usedMemory: number;
}

interface Row {
  y: number;
  h: number;
  /** in x order */
  boxes: NodeBox[];
}

export interface Layout {
  width: number;
  height: number;
  headings: Heading[];
  boxes: NodeBox[];
  rows: Row[];
  /** the number of allocations drawn (those on a node of the picture) */
  allocations: number;
}

export type Hit = { node: NodeBox; segment?: Segment };

/** Box height and widest box by the cluster's size: roomy for a few nodes, compact for thousands. */
function scale(nodes: number): { h: number; maxW: number; gap: number; labelled: boolean } {
  if (nodes <= 60) return { h: 64, maxW: 240, gap: 8, labelled: true };
  if (nodes <= 600) return { h: 40, maxW: 150, gap: 6, labelled: true };
  return { h: 22, maxW: 64, gap: 3, labelled: false };
}

const HEADING_H = 28;
const GROUP_GAP = 12;
const PAD = 3;
const LABEL_H = 16;

const allocCpu = (a: AllocWithResources) => Object.values(a.AllocatedResources?.Tasks ?? {}).reduce((sum, t) => sum + (t.Cpu?.CpuShares ?? 0), 0);
const allocMemory = (a: AllocWithResources) => Object.values(a.AllocatedResources?.Tasks ?? {}).reduce((sum, t) => sum + (t.Memory?.MemoryMB ?? 0), 0);

const jobKey = (a: AllocWithResources) => `${a.Namespace}\u0000${a.JobID}`;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Names in the order people number machines ("node-2" before "node-10"): runs of digits compare as
 * numbers, the rest by code unit, so the order is the same in every browser and locale.
 */
function compareNames(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const digits = /^\d/.test(x) && /^\d/.test(y);
    return digits ? Number(x) - Number(y) || compare(x, y) : compare(x, y);
  }
  return pa.length - pb.length;
}

export function layoutTopology(nodes: NodeWithResources[], allocs: AllocWithResources[], width: number): Layout {
  const byNode = new Map<string, AllocWithResources[]>();
  for (const a of allocs) {
    const list = byNode.get(a.NodeID);
    if (list) list.push(a);
    else byNode.set(a.NodeID, [a]);
  }
  const capacity = (n: NodeWithResources) => ({
    cpu: Math.max(0, (n.NodeResources?.Cpu?.CpuShares ?? 0) - (n.ReservedResources?.Cpu?.CpuShares ?? 0)),
    memory: Math.max(0, (n.NodeResources?.Memory?.MemoryMB ?? 0) - (n.ReservedResources?.Memory?.MemoryMB ?? 0)),
  });
  const maxMemory = Math.max(1, ...nodes.map((n) => capacity(n).memory));
  const { h, maxW, gap, labelled } = scale(nodes.length);
  const minW = Math.round(maxW / 2);

  const datacenters = new Map<string, NodeWithResources[]>();
  for (const n of nodes) {
    const list = datacenters.get(n.Datacenter);
    if (list) list.push(n);
    else datacenters.set(n.Datacenter, [n]);
  }

  const headings: Heading[] = [];
  const boxes: NodeBox[] = [];
  const rows: Row[] = [];
  let drawn = 0;
  let y = 0;
  for (const dc of [...datacenters.keys()].sort(compare)) {
    const members = datacenters.get(dc)!.sort((a, b) => compareNames(a.Name, b.Name) || compare(a.ID, b.ID));
    const heading: Heading = { datacenter: dc, x: 0, y, nodes: members.length, cpu: 0, usedCpu: 0, memory: 0, usedMemory: 0 };
    headings.push(heading);
    y += HEADING_H;
    let row: Row = { y, h, boxes: [] };
    rows.push(row);
    let x = 0;
    for (const node of members) {
      const { cpu, memory } = capacity(node);
      const w = Math.round(minW + (maxW - minW) * (memory / maxMemory));
      if (x > 0 && x + w > width) {
        x = 0;
        y += h + gap;
        row = { y, h, boxes: [] };
        rows.push(row);
      }
      const top = y + PAD + (labelled ? LABEL_H : 0);
      const barH = (h - 2 * PAD - (labelled ? LABEL_H : 0) - 1) / 2;
      const inner = w - 2 * PAD;
      const box: NodeBox = {
        node,
        x,
        y,
        w,
        h,
        cpu,
        memory,
        usedCpu: 0,
        usedMemory: 0,
        label: labelled ? { x: x + PAD, y: y + PAD, w: inner } : undefined,
        cpuBar: { x: x + PAD, y: top, w: inner, h: barH },
        memBar: { x: x + PAD, y: top + barH + 1, w: inner, h: barH },
        segments: [],
      };
      // Grouped by job, so one job's allocations on a node read as one stretch of its colour.
      const own = (byNode.get(node.ID) ?? []).sort((a, b) => compare(jobKey(a), jobKey(b)) || compare(a.ID, b.ID));
      let cpuX = box.cpuBar.x;
      let memX = box.memBar.x;
      const cpuEnd = box.cpuBar.x + inner;
      const memEnd = box.memBar.x + inner;
      for (const alloc of own) {
        const aCpu = allocCpu(alloc);
        const aMem = allocMemory(alloc);
        // An over-committed node fills its bar and no more; what overflows still counts in the totals.
        const cpuW = Math.min(cpuEnd - cpuX, cpu > 0 ? (inner * aCpu) / cpu : 0);
        const memW = Math.min(memEnd - memX, memory > 0 ? (inner * aMem) / memory : 0);
        box.segments.push({ alloc, cpu: aCpu, memory: aMem, cpuX, cpuW, memX, memW });
        cpuX += cpuW;
        memX += memW;
        box.usedCpu += aCpu;
        box.usedMemory += aMem;
      }
      drawn += own.length;
      heading.cpu += cpu;
      heading.memory += memory;
      heading.usedCpu += box.usedCpu;
      heading.usedMemory += box.usedMemory;
      row.boxes.push(box);
      boxes.push(box);
      x += w + gap;
    }
    y += h + GROUP_GAP;
  }
  return { width, height: Math.max(y, 1), headings, boxes, rows, allocations: drawn };
}

/** The last index in [0, length) whose key is at most `v`, or -1. */
function floorIndex(length: number, key: (i: number) => number, v: number): number {
  let lo = 0;
  let hi = length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) <= v) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const inside = (b: Bar, x: number, y: number) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;

/** The node box under (x, y), and the allocation under it when the point is on one of its bar segments. */
export function hitTest(layout: Layout, x: number, y: number): Hit | undefined {
  const r = floorIndex(layout.rows.length, (i) => layout.rows[i].y, y);
  if (r < 0) return undefined;
  const row = layout.rows[r];
  if (y >= row.y + row.h) return undefined;
  const b = floorIndex(row.boxes.length, (i) => row.boxes[i].x, x);
  if (b < 0) return undefined;
  const node = row.boxes[b];
  if (x >= node.x + node.w) return undefined;
  const inCpu = inside(node.cpuBar, x, y);
  if (!inCpu && !inside(node.memBar, x, y)) return { node };
  const segs = node.segments;
  const i = floorIndex(segs.length, (k) => (inCpu ? segs[k].cpuX : segs[k].memX), x);
  const segment = i < 0 ? undefined : segs[i];
  if (segment && x < (inCpu ? segment.cpuX + segment.cpuW : segment.memX + segment.memW)) return { node, segment };
  return { node };
}

