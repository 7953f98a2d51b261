/**
 * The stored form of an allocation and of its list stub. A placement's record was mostly fields at their
 * zero value, a metric whose five kept node scores each spelled out the scorers' names, and task events
 * carrying two dozen legacy fields of which a few are set; at a million allocations that was most of the
 * store's file. So what a reader can put back is not written: a field at its zero value (zeroAllocation),
 * a task event's unset fields, and the scorer names but once, with each kept node's scores as a row in
 * their order. `readAlloc` (and alloc-stubs.ts's readStub) give back exactly the record that was packed;
 * a record written whole (before this form) reads as itself, since a field present wins over its zero
 * value.
 */
import { zeroAllocation, zeroTaskEvent, type AllocMetric, type Allocation, type TaskState } from '../structs/allocation.js';
import { newMetric, type NodeScores } from '../sched/metrics.js';

export type Fields = Record<string, unknown>;

/** The kept node scores as rows under one list of scorer names: [NodeID, NormScore, score per name (null: not scored)]. */
interface PackedScores {
  Names: string[];
  Rows: (string | number | null)[][];
}

const ZERO_ALLOC = zeroAllocation() as unknown as Fields;
const ZERO_METRIC = newMetric('', {}, 0) as unknown as Fields;
const ZERO_EVENT = zeroTaskEvent() as unknown as Fields;

export function packAlloc(a: Allocation): Fields {
  const out = elide(a as unknown as Fields, ZERO_ALLOC);
  if (a.Metrics) out.Metrics = packMetric(a.Metrics);
  if (a.TaskStates) out.TaskStates = packTaskStates(a.TaskStates);
  return out;
}

export function readAlloc(stored: Fields): Allocation {
  const a = restore(stored, zeroAllocation() as unknown as Fields) as unknown as Allocation;
  if (a.Metrics) a.Metrics = readMetric(a.Metrics as unknown as Fields);
  if (a.TaskStates) a.TaskStates = readTaskStates(a.TaskStates);
  return a;
}

function packMetric(m: AllocMetric): Fields {
  const out = elide(m as unknown as Fields, ZERO_METRIC);
  if (m.ScoreMetaData) {
    delete out.ScoreMetaData;
    out.TopScores = packScores(m.ScoreMetaData);
  }
  return out;
}

function readMetric(stored: Fields): AllocMetric {
  const { TopScores, ...rest } = stored;
  const m = restore(rest, newMetric('', {}, 0) as unknown as Fields) as unknown as AllocMetric;
  if (TopScores) m.ScoreMetaData = readScores(TopScores as PackedScores);
  return m;
}

function packScores(list: NodeScores[]): PackedScores {
  const names: string[] = [];
  const at = new Map<string, number>();
  for (const entry of list) {
    for (const name of Object.keys(entry.Scores)) {
      if (!at.has(name)) {
        at.set(name, names.length);
        names.push(name);
      }
    }
  }
  const rows = list.map((entry) => {
    const row: (string | number | null)[] = [entry.NodeID, entry.NormScore, ...names.map(() => null)];
    for (const [name, score] of Object.entries(entry.Scores)) row[2 + at.get(name)!] = score;
    return row;
  });
  return { Names: names, Rows: rows };
}

function readScores({ Names, Rows }: PackedScores): NodeScores[] {
  return Rows.map((row) => {
    const scores: Record<string, number> = {};
    Names.forEach((name, i) => {
      const score = row[2 + i];
      if (score !== null) scores[name] = score as number;
    });
    return { NodeID: row[0] as string, Scores: scores, NormScore: row[1] as number };
  });
}

export function packTaskStates(states: Record<string, TaskState>): Record<string, Fields> {
  const out: Record<string, Fields> = {};
  for (const [task, state] of Object.entries(states)) out[task] = { ...state, Events: state.Events?.map((e) => elide(e as unknown as Fields, ZERO_EVENT)) ?? state.Events };
  return out;
}

export function readTaskStates(states: Record<string, TaskState>): Record<string, TaskState> {
  const out: Record<string, TaskState> = {};
  for (const [task, state] of Object.entries(states)) out[task] = { ...state, Events: state.Events?.map((e) => restore(e as unknown as Fields, zeroTaskEvent() as unknown as Fields)) as unknown as TaskState['Events'] };
  return out;
}

/** `value` without the fields equal to `zero`'s. */
export function elide(value: Fields, zero: Fields): Fields {
  const out: Fields = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key in zero && same(v, zero[key])) continue;
    out[key] = v;
  }
  return out;
}

/** `fresh` (a new zero record, whose objects the result may own) with the stored fields over it. */
export function restore(stored: Fields, fresh: Fields): Fields {
  for (const key of Object.keys(stored)) fresh[key] = stored[key];
  return fresh;
}

/** The same primitive (null included), two empty arrays, or objects with the same keys holding the same values. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === 0 && b.length === 0;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && same((a as Fields)[k], (b as Fields)[k]));
}
