/**
 * The text form of a job diff, as `nomad job plan` and `nomad job history -p` print it: `+`, `-` and `+/-`
 * markers, names and values aligned per level, `Name: "old" => "new"`. Pure: the caller passes the colours.
 */
import type { DiffType, FieldDiff, JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff } from './types.js';

/** The styles a coloured diff uses, each wrapping its text: the CLI's palette (src/cli/output/colour.ts). */
export interface DiffPalette {
  bold(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  yellowBright(text: string): string;
  blue(text: string): string;
  cyan(text: string): string;
}

export interface RenderOptions {
  /** expand added and deleted groups and tasks, and show an unedited job's own fields (plan -verbose) */
  verbose?: boolean;
  /** colours as Nomad's CLI uses them; none without */
  palette?: DiffPalette;
}

type Color = Exclude<keyof DiffPalette, 'bold'>;

const UPDATE_COLORS: Record<string, Color | undefined> = {
  create: 'green',
  destroy: 'red',
  migrate: 'blue',
  'in-place update': 'cyan',
  'create/destroy update': 'yellow',
  canary: 'yellowBright',
};
const ANNOTATION_COLORS: Record<string, Color | undefined> = {
  'forces create': 'green',
  'forces destroy': 'red',
  'forces in-place update': 'cyan',
  'forces create/destroy update': 'yellow',
};

/** Go's %q: a double-quoted string with Go escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\u0007') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\u000b') out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if ((cp >= 0x80 && cp < 0xa0) || cp === 0xfffd) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const spaces = (n: number) => ' '.repeat(Math.max(0, n));
const width = (s: string) => Buffer.byteLength(s);

const PLAIN: DiffPalette = { bold: (t) => t, green: (t) => t, red: (t) => t, yellow: (t) => t, yellowBright: (t) => t, blue: (t) => t, cyan: (t) => t };

/**
 * Renders one diff; every function below mirrors the layout rules of Nomad's command/job_plan.go. Nomad
 * leaves some colours open across lines; here each coloured span is closed where its text ends.
 */
class Renderer {
  constructor(private readonly p: DiffPalette) {}

  marker(type: DiffType): [string, number] {
    switch (type) {
      case 'Added':
        return [`${this.p.green('+')} `, 2];
      case 'Deleted':
        return [`${this.p.red('-')} `, 2];
      case 'Edited':
        return [`${this.p.yellowBright('+/-')} `, 4];
      default:
        return ['', 0];
    }
  }

  longest(fields: FieldDiff[] | null, objects: ObjectDiff[] | null): [number, number] {
    let field = 0;
    let marker = 0;
    for (const f of fields ?? []) {
      field = Math.max(field, width(f.Name));
      marker = Math.max(marker, this.marker(f.Type)[1]);
    }
    for (const o of objects ?? []) marker = Math.max(marker, this.marker(o.Type)[1]);
    return [field, marker];
  }

  annotations(list: string[]): string {
    return list.map((a) => (ANNOTATION_COLORS[a] ? this.p[ANNOTATION_COLORS[a]!](a) : a)).join(', ');
  }

  job(job: JobDiff, verbose: boolean): string {
    let out = `${this.marker(job.Type)[0]}${this.p.bold(`Job: ${goQuote(job.ID)}`)}\n`;
    let [longestField, longestMarker] = this.longest(job.Fields, job.Objects);
    for (const tg of job.TaskGroups ?? []) longestMarker = Math.max(longestMarker, this.marker(tg.Type)[1]);
    if (job.Type === 'Edited' || verbose) {
      const fo = this.aligned(job.Fields, job.Objects, 0, longestField, longestMarker);
      out += fo;
      if (fo.length > 0) out += '\n';
    }
    for (const tg of job.TaskGroups ?? []) out += `${this.group(tg, longestMarker - this.marker(tg.Type)[1], verbose)}\n`;
    return out;
  }

  group(tg: TaskGroupDiff, tgPrefix: number, verbose: boolean): string {
    let out = `${this.marker(tg.Type)[0]}${spaces(tgPrefix)}${this.p.bold(`Task Group: ${goQuote(tg.Name)}`)}`;
    const kinds = Object.keys(tg.Updates ?? {}).sort();
    if (kinds.length > 0) {
      const parts = kinds.map((k) => (UPDATE_COLORS[k] ? this.p[UPDATE_COLORS[k]!](`${tg.Updates![k]} ${k}`) : `${tg.Updates![k]} ${k}`));
      out += ` (${parts.join(', ')})\n`;
    } else out += '\n';
    let [longestField, longestMarker] = this.longest(tg.Fields, tg.Objects);
    for (const t of tg.Tasks ?? []) longestMarker = Math.max(longestMarker, this.marker(t.Type)[1]);
    const subStart = tgPrefix + 2;
    if (tg.Type === 'Edited' || verbose) {
      const fo = this.aligned(tg.Fields, tg.Objects, subStart, longestField, longestMarker);
      out += fo;
      if (fo.length > 0) out += '\n';
    }
    for (const t of tg.Tasks ?? []) out += `${this.task(t, subStart, longestMarker - this.marker(t.Type)[1], verbose)}\n`;
    return out;
  }

  task(task: TaskDiff, startPrefix: number, taskPrefix: number, verbose: boolean): string {
    let out = `${spaces(startPrefix)}${this.marker(task.Type)[0]}${spaces(taskPrefix)}${this.p.bold(`Task: ${goQuote(task.Name)}`)}`;
    if (task.Annotations?.length) out += ` (${this.annotations(task.Annotations)})`;
    if (task.Type === 'None') return out;
    if ((task.Type === 'Deleted' || task.Type === 'Added') && !verbose) return out;
    out += '\n';
    const [longestField, longestMarker] = this.longest(task.Fields, task.Objects);
    return out + this.aligned(task.Fields, task.Objects, startPrefix + 2, longestField, longestMarker);
  }

  object(diff: ObjectDiff, startPrefix: number, keyPrefix: number): string {
    const [marker, markerLen] = this.marker(diff.Type);
    let out = `${spaces(startPrefix)}${marker}${spaces(keyPrefix)}${diff.Name} {\n`;
    const [longestField, longestMarker] = this.longest(diff.Fields, diff.Objects);
    out += this.aligned(diff.Fields, diff.Objects, startPrefix + keyPrefix + 2, longestField, longestMarker);
    return `${out}\n${spaces(startPrefix + markerLen + keyPrefix)}}`;
  }

  field(diff: FieldDiff, startPrefix: number, keyPrefix: number, valuePrefix: number): string {
    let out = `${spaces(startPrefix)}${this.marker(diff.Type)[0]}${spaces(keyPrefix)}${diff.Name}: ${spaces(valuePrefix)}`;
    if (diff.Type === 'Deleted') out += goQuote(diff.Old);
    else if (diff.Type === 'Edited') out += `${goQuote(diff.Old)} => ${goQuote(diff.New)}`;
    else out += goQuote(diff.New);
    if (diff.Annotations?.length) out += ` (${this.annotations(diff.Annotations)})`;
    return out;
  }

  aligned(fields: FieldDiff[] | null, objects: ObjectDiff[] | null, startPrefix: number, longestField: number, longestMarker: number): string {
    const fs = fields ?? [];
    const os = objects ?? [];
    let out = '';
    fs.forEach((f, i) => {
      out += this.field(f, startPrefix, longestMarker - this.marker(f.Type)[1], longestField - width(f.Name));
      if (i + 1 !== fs.length || os.length > 0) out += '\n';
    });
    os.forEach((o, i) => {
      out += this.object(o, startPrefix, longestMarker - this.marker(o.Type)[1]);
      if (i + 1 !== os.length) out += '\n';
    });
    return out;
  }
}

/** The diff as Nomad's plan and history print it, trimmed. */
export function formatJobDiff(diff: JobDiff, opts: RenderOptions = {}): string {
  return new Renderer(opts.palette ?? PLAIN).job(diff, opts.verbose === true).trim();
}
