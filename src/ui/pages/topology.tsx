/**
 * /ui/topology: the cluster in one picture, as Nomad's topology view: every node a box grouped by
 * datacenter, sized by its memory and filled by its allocations' CPU and memory, each job in a colour of
 * its own. Pointing at a box says what it is and what runs there; a click opens the allocation under the
 * pointer, or else the node. Drawn on a canvas (one element however large the cluster), laid out once
 * per change of the data or the width; the nodes and the allocations are each followed by one blocking
 * query. The first picture with nodes in it leaves a performance mark, `svc-topology-drawn`, and a
 * measure of the layout and drawing it took, `svc-topology-render`.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLive } from '../live.js';
import { jobAddress, Link, navigate } from '../router.js';
import { shortId } from '../format.js';
import { drawTopology, percent } from '../topology/draw.js';
import { hitTest, layoutTopology, type Bar, type Hit, type Layout } from '../topology/layout.js';
import type { AllocWithResources, NodeWithResources } from '../topology/types.js';
import { clientAddress } from './clients.js';
import { Problem } from './problem.js';

/** Allocations that hold resources on their node: placed and not yet finished. */
const SCHEDULED = 'ClientStatus == "running" or ClientStatus == "pending"';

/** Browsers refuse canvases much taller than this many device pixels. */
const MAX_CANVAS_PX = 32_000;

const EMPTY: never[] = [];

/** Once a document: the bench reads the first picture's mark, not a later page visit's. */
let marked = false;

function useWidth(ref: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const seen = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    seen.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => seen.disconnect();
  }, []);
  return width;
}

/** Sizes a canvas to the layout and answers its context, scaled so that drawing is in CSS pixels. */
function prepare(canvas: HTMLCanvasElement, layout: Layout): CanvasRenderingContext2D | null {
  const ratio = Math.min(devicePixelRatio || 1, MAX_CANVAS_PX / layout.height);
  canvas.width = Math.round(layout.width * ratio);
  canvas.height = Math.round(layout.height * ratio);
  canvas.style.width = `${layout.width}px`;
  canvas.style.height = `${layout.height}px`;
  const ctx = canvas.getContext('2d');
  ctx?.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

function Details(props: { hit?: Hit; layout: Layout }) {
  const { hit, layout } = props;
  if (!hit) {
    const totals = layout.headings.reduce((t, h) => ({ cpu: t.cpu + h.cpu, usedCpu: t.usedCpu + h.usedCpu, memory: t.memory + h.memory, usedMemory: t.usedMemory + h.usedMemory }), { cpu: 0, usedCpu: 0, memory: 0, usedMemory: 0 });
    return (
      <p class="muted" data-testid="topology-details">
        {layout.boxes.length} nodes in {layout.headings.length} datacenter{layout.headings.length === 1 ? '' : 's'}, {layout.allocations} allocations; CPU {percent(totals.usedCpu, totals.cpu)}, memory {percent(totals.usedMemory, totals.memory)} allocated. Point at a node for its
        allocations; click to open one.
      </p>
    );
  }
  const { node: b, segment: s } = hit;
  return (
    <div data-testid="topology-details">
      <p>
        <strong>
          <Link to={clientAddress(b.node.ID)}>{b.node.Name}</Link>
        </strong>{' '}
        <span class={`status status-${b.node.Status}`}>{b.node.Status}</span> {b.node.Datacenter} · {b.node.NodePool} · {b.segments.length} allocation{b.segments.length === 1 ? '' : 's'} · CPU {b.usedCpu}/{b.cpu} MHz ({percent(b.usedCpu, b.cpu)}) · memory {b.usedMemory}/{b.memory} MiB ({percent(b.usedMemory, b.memory)})
        {b.node.Drain ? ' · draining' : ''}
        {b.node.SchedulingEligibility === 'ineligible' ? ' · ineligible' : ''}
      </p>
      {s && (
        <p data-testid="topology-alloc">
          Allocation <Link to={`/allocations/${encodeURIComponent(s.alloc.ID)}`}>{shortId(s.alloc.ID)}</Link> of job <Link to={jobAddress(s.alloc.JobID, s.alloc.Namespace)}>{s.alloc.JobID}</Link> ({s.alloc.Namespace}), group {s.alloc.TaskGroup},{' '}
          {s.alloc.ClientStatus} · CPU {s.cpu} MHz · memory {s.memory} MiB
        </p>
      )}
    </div>
  );
}

/** An outline over the canvas, placed through the element's style object (the policy refuses style attributes, not that). */
function Mark(props: { at: Bar; class: string }) {
  const { x, y, w, h } = props.at;
  return <div class={`topology-mark ${props.class}`} style={{ left: x, top: y, width: w, height: h }} />;
}

function Marks(props: { hit?: Hit }) {
  if (!props.hit) return null;
  const { node: b, segment: s } = props.hit;
  return (
    <>
      <Mark at={b} class="node" />
      {s && s.cpuW > 0 && <Mark at={{ x: s.cpuX, y: b.cpuBar.y, w: s.cpuW, h: b.cpuBar.h }} class="alloc" />}
      {s && s.memW > 0 && <Mark at={{ x: s.memX, y: b.memBar.y, w: s.memW, h: b.memBar.h }} class="alloc" />}
    </>
  );
}

/** What the picture's marks mean. */
function Legend() {
  return (
    <p class="topology-legend muted" data-testid="topology-legend">
      <span>Each node: CPU over memory, filled by its allocations, a colour per job;</span>
      <span>
        <i class="swatch running" /> running
      </span>
      <span>
        <i class="swatch pending" /> pending
      </span>
      <span>
        <i class="swatch border down" /> down
      </span>
      <span>
        <i class="swatch border starting" /> initializing or disconnected
      </span>
      <span>
        <i class="swatch border draining" /> draining
      </span>
      <span>
        <i class="swatch border ineligible" /> ineligible
      </span>
    </p>
  );
}

const sameHit = (a: Hit | undefined, b: Hit | undefined) => a?.node.node.ID === b?.node.node.ID && a?.segment?.alloc.ID === b?.segment?.alloc.ID;

export function TopologyPage() {
  const nodes = useLive<NodeWithResources[]>('/v1/nodes', { resources: 'true' });
  const allocs = useLive<AllocWithResources[]>('/v1/allocations', { namespace: '*', resources: 'true', task_states: 'false', filter: SCHEDULED });
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const [hit, setHit] = useState<Hit>();
  // Where the pointer last was over the picture, so a picture redrawn under it says what is there now.
  const pointer = useRef<{ x: number; y: number }>();
  const ready = nodes.data !== undefined && allocs.data !== undefined && width > 0;
  const layout = useMemo(() => (ready ? { laidOutFrom: performance.now(), ...layoutTopology(nodes.data ?? EMPTY, allocs.data ?? EMPTY, width) } : undefined), [nodes.data, allocs.data, width, ready]);

  useEffect(() => {
    const el = canvas.current;
    if (!layout || !el) return;
    const ctx = prepare(el, layout);
    if (ctx) drawTopology(ctx, layout);
    setHit(pointer.current && hitTest(layout, pointer.current.x, pointer.current.y));
    el.dataset.nodes = String(layout.boxes.length);
    el.dataset.allocations = String(layout.allocations);
    if (!marked && layout.boxes.length > 0) {
      marked = true;
      performance.measure('svc-topology-render', { start: layout.laidOutFrom });
      performance.mark('svc-topology-drawn');
    }
  }, [layout]);

  const at = (e: MouseEvent) => (layout ? hitTest(layout, e.offsetX, e.offsetY) : undefined);
  const onMove = (e: MouseEvent) => {
    pointer.current = { x: e.offsetX, y: e.offsetY };
    const next = at(e);
    if (!sameHit(next, hit)) setHit(next);
  };
  const onLeave = () => {
    pointer.current = undefined;
    setHit(undefined);
  };
  const onClick = (e: MouseEvent) => {
    const target = at(e);
    if (!target) return;
    navigate(target.segment ? `/allocations/${encodeURIComponent(target.segment.alloc.ID)}` : clientAddress(target.node.node.ID));
  };

  const error = nodes.error ?? allocs.error;
  return (
    <section>
      <h1>Topology</h1>
      {error && <Problem error={error} />}
      {nodes.data && nodes.data.length === 0 && <p class="muted">No nodes have registered.</p>}
      <div class="topology-details">
        {layout ? <Details hit={hit} layout={layout} /> : !error && <p class="muted">Loading…</p>}
        <Legend />
      </div>
      <div class="topology" ref={frame}>
        <canvas
          ref={canvas}
          class={hit ? 'pointing' : undefined}
          data-testid="topology"
          aria-label="The cluster's nodes and their allocations"
          role="img"
          onMouseMove={onMove}
          onMouseLeave={onLeave}
          onClick={onClick}
        />
        <Marks hit={hit} />
      </div>
    </section>
  );
}
