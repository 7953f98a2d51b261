/**
 * Paints a layout on a 2D canvas context already scaled to CSS pixels: one pass over the boxes, no
 * per-node DOM. What the pointer is on is outlined by the page with a few elements above the canvas, so
 * pointing repaints neither the picture nor a canvas of its size.
 */
import { jobColour } from './colour.js';
import type { Layout, NodeBox } from './layout.js';

const FG = '#1d1f23';
const MUTED = '#6a6f78';
const BOX = '#f6f7f9';
const BAR = '#e3e6ea';
/** The border by the node's status; the page's legend (style.css, .topology-legend) uses the same colours. */
const BORDER: Record<string, string> = { ready: '#c9ced6', initializing: '#7a5cc4', disconnected: '#7a5cc4', down: '#c0262d' };
const DRAINING = '#a86200';

/** A share as the picture and its details write it. */
export const percent = (used: number, total: number) => (total > 0 ? `${Math.round((100 * used) / total)}%` : '–');

/** The name cut to what fits, at about 6.5 pixels a character of the 11px font. */
function fitted(name: string, w: number): string {
  const max = Math.floor(w / 6.5);
  return name.length <= max ? name : `${name.slice(0, Math.max(1, max - 1))}…`;
}

/** Adds each item's rectangles to one path per group and paints it: a few hundred calls for thousands of boxes. */
function paintGroups<T>(items: Iterable<T>, keyOf: (item: T) => string, rects: (item: T, add: (x: number, y: number, w: number, h: number) => void) => void, paint: (key: string, path: Path2D) => void): void {
  const paths = new Map<string, Path2D>();
  for (const item of items) {
    const key = keyOf(item);
    let path = paths.get(key);
    if (!path) paths.set(key, (path = new Path2D()));
    rects(item, (x, y, w, h) => path.rect(x, y, w, h));
  }
  for (const [key, path] of paths) paint(key, path);
}

const borderOf = (b: NodeBox) => `${b.node.Drain ? DRAINING : (BORDER[b.node.Status] ?? BORDER.ready)} ${b.node.SchedulingEligibility === 'ineligible' ? 'dashed' : 'solid'}`;

/** Each segment with its box, for grouping by colour and state. */
function* segmentsOf(boxes: NodeBox[]) {
  for (const box of boxes) for (const segment of box.segments) yield { box, segment };
}

export function drawTopology(ctx: CanvasRenderingContext2D, layout: Layout): void {
  ctx.clearRect(0, 0, layout.width, layout.height);
  ctx.lineWidth = 1;
  for (const h of layout.headings) {
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.fillStyle = FG;
    ctx.fillText(h.datacenter, h.x, h.y + 18);
    const nameW = ctx.measureText(h.datacenter).width;
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillStyle = MUTED;
    ctx.fillText(`${h.nodes} node${h.nodes === 1 ? '' : 's'} · CPU ${percent(h.usedCpu, h.cpu)} · memory ${percent(h.usedMemory, h.memory)} allocated`, h.x + nameW + 10, h.y + 18);
  }
  const boxes = layout.boxes;
  paintGroups(boxes, () => BOX, (b, add) => add(b.x, b.y, b.w, b.h), (colour, path) => ((ctx.fillStyle = colour), ctx.fill(path)));
  paintGroups(boxes, borderOf, (b, add) => add(b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1), (key, path) => {
    const [colour, style] = key.split(' ');
    ctx.strokeStyle = colour;
    ctx.setLineDash(style === 'dashed' ? [3, 2] : []);
    ctx.stroke(path);
  });
  ctx.setLineDash([]);
  paintGroups(
    boxes,
    () => BAR,
    (b, add) => (add(b.cpuBar.x, b.cpuBar.y, b.cpuBar.w, b.cpuBar.h), add(b.memBar.x, b.memBar.y, b.memBar.w, b.memBar.h)),
    (colour, path) => ((ctx.fillStyle = colour), ctx.fill(path)),
  );
  // A pending allocation holds its resources but runs nothing yet: drawn paler.
  paintGroups(
    segmentsOf(boxes),
    ({ segment: s }) => `${s.alloc.ClientStatus === 'running' ? 1 : 0.45}\u0000${jobColour(s.alloc.Namespace, s.alloc.JobID)}`,
    ({ box: b, segment: s }, add) => (add(s.cpuX, b.cpuBar.y, s.cpuW, b.cpuBar.h), add(s.memX, b.memBar.y, s.memW, b.memBar.h)),
    (key, path) => {
      const [alpha, colour] = key.split('\u0000');
      ctx.globalAlpha = Number(alpha);
      ctx.fillStyle = colour;
      ctx.fill(path);
    },
  );
  ctx.globalAlpha = 1;
  ctx.font = '11px system-ui, sans-serif';
  for (const b of boxes) {
    if (!b.label) continue;
    ctx.fillStyle = b.node.Status === 'ready' ? FG : MUTED;
    ctx.fillText(fitted(b.node.Name, b.label.w), b.label.x, b.label.y + 11);
  }
}
