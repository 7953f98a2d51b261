/**
 * Paints a layout on a 2D canvas context already scaled to CSS pixels: one pass over the boxes, no
 * per-node DOM. The picture of what is hovered is painted on a second canvas above it, so moving the
 * pointer repaints one box, not the cluster.
 */
import { jobColour } from './colour.js';
import type { Hit, Layout, NodeBox } from './layout.js';

const FG = '#1d1f23';
const MUTED = '#6a6f78';
const BOX = '#f6f7f9';
const BAR = '#e3e6ea';
const BORDER: Record<string, string> = { ready: '#c9ced6', initializing: '#a86200', disconnected: '#a86200', down: '#c0262d' };
const DRAINING = '#a86200';
const ACCENT = '#1563ff';

const percent = (used: number, total: number) => (total > 0 ? `${Math.round((100 * used) / total)}%` : '–');

/** The name cut to what fits, at about 6.5 pixels a character of the 11px font. */
function fitted(name: string, w: number): string {
  const max = Math.floor(w / 6.5);
  return name.length <= max ? name : `${name.slice(0, Math.max(1, max - 1))}…`;
}

function drawBox(ctx: CanvasRenderingContext2D, b: NodeBox): void {
  ctx.fillStyle = BOX;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  ctx.strokeStyle = b.node.Drain ? DRAINING : (BORDER[b.node.Status] ?? BORDER.ready);
  ctx.setLineDash(b.node.SchedulingEligibility === 'ineligible' ? [3, 2] : []);
  ctx.strokeRect(b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1);
  if (b.label) {
    ctx.fillStyle = b.node.Status === 'ready' ? FG : MUTED;
    ctx.fillText(fitted(b.node.Name, b.label.w), b.label.x, b.label.y + 11);
  }
  ctx.fillStyle = BAR;
  ctx.fillRect(b.cpuBar.x, b.cpuBar.y, b.cpuBar.w, b.cpuBar.h);
  ctx.fillRect(b.memBar.x, b.memBar.y, b.memBar.w, b.memBar.h);
  for (const s of b.segments) {
    ctx.fillStyle = jobColour(s.alloc.Namespace, s.alloc.JobID);
    // A pending allocation holds its resources but runs nothing yet: drawn paler.
    ctx.globalAlpha = s.alloc.ClientStatus === 'running' ? 1 : 0.45;
    ctx.fillRect(s.cpuX, b.cpuBar.y, s.cpuW, b.cpuBar.h);
    ctx.fillRect(s.memX, b.memBar.y, s.memW, b.memBar.h);
    ctx.globalAlpha = 1;
  }
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
  ctx.font = '11px system-ui, sans-serif';
  for (const b of layout.boxes) drawBox(ctx, b);
  ctx.setLineDash([]);
}

/** Outlines the hovered node, and the hovered allocation in both its bars. */
export function drawHighlight(ctx: CanvasRenderingContext2D, layout: Layout, hit: Hit | undefined): void {
  ctx.clearRect(0, 0, layout.width, layout.height);
  if (!hit) return;
  const { node: b, segment: s } = hit;
  ctx.lineWidth = 2;
  ctx.strokeStyle = ACCENT;
  ctx.strokeRect(b.x + 1, b.y + 1, b.w - 2, b.h - 2);
  if (!s) return;
  ctx.strokeStyle = FG;
  ctx.lineWidth = 1.5;
  if (s.cpuW > 0) ctx.strokeRect(s.cpuX + 0.75, b.cpuBar.y + 0.75, Math.max(0, s.cpuW - 1.5), b.cpuBar.h - 1.5);
  if (s.memW > 0) ctx.strokeRect(s.memX + 0.75, b.memBar.y + 0.75, Math.max(0, s.memW - 1.5), b.memBar.h - 1.5);
}
