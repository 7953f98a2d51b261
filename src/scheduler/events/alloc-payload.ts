/**
 * An allocation event's payload straight from the record's stored text. The event carries the allocation
 * as `GET /v1/allocation/:id` shows it without its job: allocFull(readAlloc(JSON.parse(text)), null).
 * Made that way it cost twice the CPU time this does (measured on a placement's record of 1.3 KB: 29 µs
 * against 15 on a busy machine), most of it parsing the record and writing 2.4 KB of JSON again, when all
 * but two of the record's fields come out as they went in. So the text's top-level members are
 * found without parsing them, and the payload is spliced from them: each in the order readAlloc puts
 * them (zeroAllocation's, then any others), a field the record left out at its zero value, top-level
 * zero values dropped as allocFull does; only the metric (its zero fields and packed scores put back)
 * and the task states (their events' zero fields) are rebuilt, member by member too.
 *
 * What is copied is JSON.stringify's own output, which parsing and writing again would give back as it
 * was; a text that might not be (whitespace between tokens, a `\u` escape, a field of an unexpected
 * kind) is answered undefined, and the caller takes the slow way, which gives what this would.
 */
import { zeroAllocation, zeroTaskEvent } from '../structs/allocation.js';
import { newMetric } from '../sched/metrics.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, SPACE } from '../../shared/json-chars.js';

export interface AllocPayload {
  /** `{"Allocation":{…}}` */
  payload: string;
  id: string;
  namespace: string;
  jobId: string;
  deploymentId: string;
}

const isZero = (v: unknown) => v === '' || v === 0 || v === false || v === null || v === undefined;
const zeroText = (raw: string) => raw === '""' || raw === '0' || raw === 'false' || raw === 'null';

/** A field's name as a member's start (`"Name":`) and its zero value's JSON (undefined: none is written, or it is dropped). */
interface Field {
  name: string;
  member: string;
  zero: string | undefined;
}

/**
 * The fields an object is written with, in their order, and each one's position by name: a member read
 * is put at its field's position (one lookup), so writing them out in the fields' order needs none.
 */
interface Shape {
  fields: Field[];
  at: ReadonlyMap<string, number>;
}

function shapeOf(zero: Record<string, unknown>, dropZeros: boolean): Shape {
  const fields = Object.entries(zero).map(([name, v]) => ({ name, member: `${JSON.stringify(name)}:`, zero: dropZeros && isZero(v) ? undefined : JSON.stringify(v) }));
  return { fields, at: new Map(fields.map((f, i) => [f.name, i])) };
}

const ALLOC = shapeOf(zeroAllocation() as unknown as Record<string, unknown>, true);
const METRIC = shapeOf(newMetric('', {}, 0) as unknown as Record<string, unknown>, false);
const EVENT = shapeOf(zeroTaskEvent() as unknown as Record<string, unknown>, false);
const NO_SHAPE: Shape = { fields: [], at: new Map() };
const field = (shape: Shape, name: string) => shape.at.get(name)!;
const [ID, NAMESPACE, JOB_ID, JOB_MODIFY_INDEX, DEPLOYMENT_ID, METRICS, TASK_STATES] = ['ID', 'Namespace', 'JobID', 'JobModifyIndex', 'DeploymentID', 'Metrics', 'TaskStates'].map((n) => field(ALLOC, n));
const SCORE_META_DATA = field(METRIC, 'ScoreMetaData');

/** An object's members as objectEnd read them (value texts, a rebuilt member's as rebuilt): its shape's by position, others in their order. */
interface Members {
  known: Array<string | undefined>;
  others: Array<[name: string, value: string]>;
}

const membersOf = (shape: Shape): Members => ({ known: new Array<string | undefined>(shape.fields.length), others: [] });

/** The payload and what the event's key and filters read, or undefined where the text is to be parsed instead. */
export function allocPayload(text: string): AllocPayload | undefined {
  if (text.includes('\\u') || text.includes('\\/')) return undefined;
  const members = membersOf(ALLOC);
  if (objectEnd(text, 0, ALLOC, members, allocMemberAt) !== text.length) return undefined;
  const { known } = members;
  let out = '{"Allocation":{';
  let first = true;
  const add = (member: string, value: string) => {
    out += first ? member + value : `,${member}${value}`;
    first = false;
  };
  for (let k = 0; k < ALLOC.fields.length; k++) {
    if (k === JOB_MODIFY_INDEX) continue;
    const raw = known[k];
    if (raw === undefined) {
      const { zero } = ALLOC.fields[k];
      if (zero !== undefined) add(ALLOC.fields[k].member, zero);
      continue;
    }
    if (zeroText(raw)) continue;
    if ((k === METRICS || k === TASK_STATES) && raw.charCodeAt(0) !== OPEN_BRACE) return undefined;
    add(ALLOC.fields[k].member, raw);
  }
  for (const [name, raw] of members.others) {
    // allocFull sets Job (to null, for an event), which drops any the record held.
    if (name === 'Job' || zeroText(raw)) continue;
    add(`${JSON.stringify(name)}:`, raw);
  }
  const id = stringOf(known[ID]);
  const namespace = stringOf(known[NAMESPACE]);
  const jobId = stringOf(known[JOB_ID]);
  const deploymentId = stringOf(known[DEPLOYMENT_ID]);
  if (id === undefined || namespace === undefined || jobId === undefined || deploymentId === undefined) return undefined;
  return { payload: `${out}}}`, id, namespace, jobId, deploymentId };
}

/**
 * A member whose object value is rebuilt as it is read: where the value at `at` ends and its JSON as
 * the payload shows it; undefined: the member is not rebuilt; null: its value is not as it should be.
 */
type Rebuild = (name: string, text: string, at: number) => { end: number; json: string } | undefined | null;

const allocMemberAt: Rebuild = (name, text, at) => (name === 'Metrics' ? metricAt(name, text, at) : name === 'TaskStates' ? taskStatesAt(name, text, at) : undefined);

/** The task states (readTaskStates) rebuilt: each task's state as stored but for its events, whose zero fields are put back. */
const taskStatesAt: Rebuild = (_name, text, at) => {
  if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
  const tasks = membersOf(NO_SHAPE);
  const end = objectEnd(text, at, NO_SHAPE, tasks, stateAt);
  if (end < 0) return null;
  return { end, json: objectJson(tasks.others) };
};

/** What a state's Events rebuilt as '' means: none (readTaskStates leaves a null list undefined, which JSON leaves out). */
const OMITTED = '';

/** An object's members written back as JSON; one rebuilt as OMITTED is left out. */
function objectJson(members: ReadonlyArray<[string, string]>): string {
  let out = '';
  for (const [name, value] of members) if (value !== OMITTED) out += `${out === '' ? '' : ','}${JSON.stringify(name)}:${value}`;
  return `{${out}}`;
}

const stateAt: Rebuild = (_task, text, at) => {
  if (text.charCodeAt(at) !== OPEN_BRACE) return null;
  const members = membersOf(NO_SHAPE);
  const end = objectEnd(text, at, NO_SHAPE, members, eventsAt);
  if (end < 0) return null;
  return { end, json: objectJson(members.others) };
};

const eventsAt: Rebuild = (name, text, at) => {
  if (name !== 'Events') return undefined;
  if (text.startsWith('null', at)) return { end: at + 4, json: OMITTED };
  if (text.charCodeAt(at) !== OPEN_BRACKET) return null;
  let i = at + 1;
  let out = '';
  if (text.charCodeAt(i) !== CLOSE_BRACKET) {
    for (;;) {
      const members = membersOf(EVENT);
      const end = objectEnd(text, i, EVENT, members, noRebuild);
      if (end < 0) return null;
      let event = '';
      for (let k = 0; k < EVENT.fields.length; k++) event += `${k === 0 ? '' : ','}${EVENT.fields[k].member}${members.known[k] ?? EVENT.fields[k].zero!}`;
      for (const [member, value] of members.others) event += `,${JSON.stringify(member)}:${value}`;
      out += `${out === '' ? '' : ','}{${event}}`;
      i = end;
      if (text.charCodeAt(i) === CLOSE_BRACKET) break;
      if (text.charCodeAt(i) !== COMMA) return null;
      i++;
    }
  }
  return { end: i + 1, json: `[${out}]` };
};

const noRebuild: Rebuild = () => undefined;

/** The allocation's metric (readMetric) rebuilt: newMetric's fields in its order, the packed scores' rows as ScoreMetaData. */
const metricAt: Rebuild = (name, text, at) => {
  if (name !== 'Metrics' || text.charCodeAt(at) !== OPEN_BRACE) return undefined;
  const members = membersOf(METRIC);
  const end = objectEnd(text, at, METRIC, members, scoresAt);
  if (end < 0) return null;
  const top = members.others.find(([member]) => member === 'TopScores')?.[1];
  let out = '{';
  for (let k = 0; k < METRIC.fields.length; k++) {
    const f = METRIC.fields[k];
    const value = k === SCORE_META_DATA && top !== undefined && !zeroText(top) ? top : (members.known[k] ?? f.zero!);
    out += k === 0 ? f.member + value : `,${f.member}${value}`;
  }
  for (const [member, value] of members.others) if (member !== 'TopScores') out += `,${JSON.stringify(member)}:${value}`;
  return { end, json: `${out}}` };
};

/**
 * The packed scores (readScores) rebuilt as ScoreMetaData, each row's numbers as they were written (a
 * number's shortest form is most of what writing one costs): `{"Names":[…],"Rows":[[NodeID,NormScore,
 * score…],…]}` and nothing else, or null.
 */
const scoresAt: Rebuild = (name, text, at) => {
  if (name !== 'TopScores') return undefined;
  if (!text.startsWith('{"Names":[', at)) return text.startsWith('null', at) ? undefined : null;
  const namesEnd = valueEnd(text, at + 9);
  if (namesEnd < 0 || !text.startsWith(',"Rows":[', namesEnd)) return null;
  const members = scoreMembers(text.slice(at + 9, namesEnd));
  if (members === undefined) return null;
  let out = '';
  // i: the row's opening bracket, then the character after each of its values
  let i = namesEnd + 9;
  if (text.charCodeAt(i) === CLOSE_BRACKET) i++;
  else {
    for (;;) {
      if (text.charCodeAt(i) !== OPEN_BRACKET) return null;
      const nodeEnd = valueEnd(text, i + 1);
      if (nodeEnd < 0 || text.charCodeAt(nodeEnd) !== COMMA) return null;
      const normEnd = valueEnd(text, nodeEnd + 1);
      if (normEnd < 0) return null;
      const node = text.slice(i + 1, nodeEnd);
      const norm = text.slice(nodeEnd + 1, normEnd);
      let scores = '';
      i = normEnd;
      for (let k = 0; text.charCodeAt(i) === COMMA; k++) {
        const end = valueEnd(text, i + 1);
        if (end < 0) return null;
        const isNull = end - i === 5 && text.startsWith('null', i + 1);
        if (k < members.length && !isNull) scores += `${scores === '' ? '' : ','}${members[k]}${text.slice(i + 1, end)}`;
        i = end;
      }
      if (text.charCodeAt(i) !== CLOSE_BRACKET) return null;
      out += `${out === '' ? '' : ','}{"NodeID":${node},"Scores":{${scores}},"NormScore":${norm}}`;
      i++;
      if (text.charCodeAt(i) === CLOSE_BRACKET) break;
      if (text.charCodeAt(i) !== COMMA) return null;
      i++;
    }
    i++;
  }
  if (text.charCodeAt(i) !== CLOSE_BRACE) return null;
  return { end: i + 1, json: `[${out}]` };
};

/** The scorer names' members (`"binpack":`), kept for the last list seen: every placement of a server names the same. */
let lastNames: { raw: string; members: string[] } | undefined;

function scoreMembers(raw: string): string[] | undefined {
  if (lastNames?.raw === raw) return lastNames.members;
  const names: unknown = JSON.parse(raw);
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !plainName(n)) || new Set(names).size !== names.length) return undefined;
  lastNames = { raw, members: names.map((n: string) => `${JSON.stringify(n)}:`) };
  return lastNames.members;
}

/** A string member's value, '' when absent, undefined when it is no string. */
function stringOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return '';
  if (raw.charCodeAt(0) !== QUOTE) return undefined;
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/**
 * Reads the object at `from` into `members` (its shape's fields by position, others in their order) and
 * answers where it ends; -1 unless it is one compact object (no whitespace between tokens)
 * whose member names are plain (plainName).
 */
function objectEnd(text: string, from: number, shape: Shape, members: Members, rebuild: Rebuild): number {
  if (text.charCodeAt(from) !== OPEN_BRACE) return -1;
  let i = from + 1;
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const nameEnd = text.indexOf('"', i + 1);
    if (nameEnd < 0 || text.charCodeAt(nameEnd + 1) !== COLON) return -1;
    const name = text.slice(i + 1, nameEnd);
    if (!plainName(name)) return -1;
    const at = shape.at.get(name);
    if (at === undefined ? members.others.some(([other]) => other === name) : members.known[at] !== undefined) return -1;
    const start = nameEnd + 2;
    const rebuilt = rebuild(name, text, start);
    if (rebuilt === null) return -1;
    let end: number;
    let value: string;
    if (rebuilt === undefined) {
      end = valueEnd(text, start);
      if (end < 0) return -1;
      value = text.slice(start, end);
    } else {
      end = rebuilt.end;
      value = rebuilt.json;
    }
    if (at === undefined) members.others.push([name, value]);
    else members.known[at] = value;
    const next = text.charCodeAt(end);
    if (next === CLOSE_BRACE) return end + 1;
    if (next !== COMMA) return -1;
    i = end + 1;
  }
}

/**
 * A member name that parsing keeps in its place as an own field: not `__proto__`, and none that begins
 * with a digit (a name that is an array index would be listed before all others).
 */
function plainName(name: string): boolean {
  const c = name.charCodeAt(0);
  return !(c >= 0x30 && c <= 0x39) && !name.includes('\\') && name !== '__proto__';
}

/** Where the value starting at `i` ends (the index after it), or -1 where it is not compact JSON. */
function valueEnd(text: string, i: number): number {
  const limit = text.length;
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    let j = i;
    for (; j < limit; j++) {
      const d = text.charCodeAt(j);
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
      if (d <= SPACE || d === QUOTE || d === OPEN_BRACE || d === OPEN_BRACKET) return -1;
    }
    return j === i ? -1 : j;
  }
  let depth = 0;
  for (let j = i; j < limit; j++) {
    const d = text.charCodeAt(j);
    if (d === QUOTE) {
      j = stringEnd(text, j) - 1;
      if (j < 0) return -1;
    } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      if (--depth === 0) return j + 1;
    } else if (d <= SPACE) return -1;
  }
  return -1;
}

/** The index after the string whose opening quote is at `i`, or -1 when it does not close. */
function stringEnd(text: string, i: number): number {
  for (let j = text.indexOf('"', i + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
  }
  return -1;
}
