/**
 * Job file → Nomad API job JSON. Accepts HCL2 (jobspec2 semantics), HCL-JSON (`{"job": {...}}`) and the
 * API JSON itself (`{"Job": {...}}` or a bare job object), so files written for Nomad work unchanged.
 */
import { dirname, resolve } from 'node:path';
import { LineIndex } from '../shared/hcl/source.js';
import { parseExpression, parseHcl, templateParser, type Attribute, type Block, type Body, type Expr, type SourceFile, type Value } from '../shared/hcl/syntax.js';
import { JobspecError } from './errors.js';
import type { EvalContext } from './expressions.js';
import { Mapper, TemplateRef, type ApiJob, type BodyNode, type JsonTree } from './mapping.js';
import { declareVariable, declareVariablesBlock, makeLocals, resolveVariables, type VariableDecl } from './variables.js';

export interface ParseJobspecOptions {
  /** Shown in error positions. */
  filename?: string;
  /** `-var name=value` flags, highest precedence. */
  variables?: Record<string, string>;
  /** `-var-file` contents in command-line order; later files win. */
  varFiles?: Array<{ name: string; content: string }>;
  /** Source of NOMAD_VAR_* / SVC_VAR_* values; pass process.env from the CLI, nothing on the server. */
  env?: Record<string, string | undefined>;
  /**
   * Directory that file() reads relative to. Unset means file() is refused, which is what the server's
   * parse endpoint needs so a submitted job cannot read the server's disk.
   */
  baseDir?: string;
}

/** What errors call a job file given without a name, as Nomad does. */
const DEFAULT_FILENAME = 'job.nomad.hcl';

export async function parseJobspec(source: string, opts: ParseJobspecOptions = {}): Promise<ApiJob> {
  return parseJobspecSync(source, opts);
}

/** The same as parseJobspec; nothing here is asynchronous, and callers in hot paths may prefer this. */
export function parseJobspecSync(source: string, opts: ParseJobspecOptions = {}): ApiJob {
  const filename = opts.filename ?? DEFAULT_FILENAME;
  // Editors on some platforms save a byte-order mark, which would otherwise read as a stray character.
  if (source.startsWith('\uFEFF')) source = source.slice(1);
  const baseDir = opts.baseDir !== undefined ? resolve(opts.baseDir) : undefined;
  if (source.trimStart().startsWith('{')) return parseJsonJobspec(source, filename, opts, baseDir);
  const file = parseHcl(source, filename, JobspecError);
  return buildJob(file, file.body.items, opts, baseDir, (b) => ({ kind: 'hcl', body: b.body }));
}

/** Resolves the directory a job file's file() calls read from, for CLI callers holding a path. */
export function jobFileDir(path: string): string {
  return dirname(resolve(path));
}

function buildJob(
  file: SourceFile,
  items: Array<Attribute | Block>,
  opts: ParseJobspecOptions,
  baseDir: string | undefined,
  jobBody: (b: Block) => BodyNode,
): ApiJob {
  const decls = new Map<string, VariableDecl>();
  const localAttrs: Array<{ attr: Attribute; source: SourceFile }> = [];
  let job: Block | undefined;
  const fail = (message: string, at: number): never => {
    throw new JobspecError(message, file.lines.pos(at));
  };
  for (const item of items) {
    if (item.kind === 'attr') fail(`Unsupported argument "${item.name}" at the top level; only variable, variables, locals and job blocks may appear here`, item.start);
    else if (item.type === 'job') {
      if (job) fail('Duplicate job block; a file holds exactly one job', item.start);
      if (item.labels.length !== 1) fail('A job block needs exactly one label: the job ID', item.start);
      job = item;
    } else if (item.type === 'variable' || item.type === 'variables') {
      const found = item.type === 'variable' ? [declareVariable(file, item, baseDir)] : declareVariablesBlock(file, item, baseDir);
      for (const d of found) {
        if (decls.has(d.name)) fail(`Duplicate variable "${d.name}"`, d.at);
        decls.set(d.name, d);
      }
    } else if (item.type === 'locals') {
      if (item.labels.length) fail('A locals block takes no labels', item.start);
      for (const attr of item.body.items) {
        if (attr.kind === 'block') fail(`Blocks are not allowed in locals ("${attr.type}")`, attr.start);
        else localAttrs.push({ attr, source: file });
      }
    } else fail(`Unsupported block type "${item.type}" at the top level; expected variable, variables, locals or job`, item.start);
  }
  if (!job) throw new JobspecError(`${file.lines.file}: Missing job block; the file must contain a job "<id>" { ... } block`);

  const vars = resolveVariables(decls, opts, baseDir);
  const local = makeLocals(localAttrs, vars, baseDir);
  const ctx: EvalContext = { source: file, vars, local: (name, at) => local(name, at, file), scope: new Map(), baseDir };
  return new Mapper(ctx, file).mapJob({ labels: job.labels, body: jobBody(job) });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJsonJobspec(source: string, filename: string, opts: ParseJobspecOptions, baseDir: string | undefined): ApiJob {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (err) {
    throw new JobspecError(`${filename}: invalid JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(data)) throw new JobspecError(`${filename}: a JSON job file must hold an object`);
  const keys = Object.keys(data);
  const apiJob = keys.find((k) => k.toLowerCase() === 'job' && k !== 'job');
  if (apiJob || 'ID' in data || 'TaskGroups' in data) {
    if (Object.keys(opts.variables ?? {}).length || opts.varFiles?.length) {
      throw new JobspecError('cannot use variables with JSON files: an API JSON job holds final values');
    }
    const job = apiJob ? data[apiJob] : data;
    if (!isPlainObject(job)) throw new JobspecError(`${filename}: "Job" must be an object`);
    return job as ApiJob;
  }
  if (!('job' in data)) throw new JobspecError(`${filename}: a JSON job file needs a "Job" key (API JSON) or a "job" key (HCL-JSON)`);
  return parseHclJson(data, filename, opts, baseDir);
}

/**
 * HCL-JSON: every string is a template. Strings are laid out in one text buffer so they can be parsed
 * with the same template parser as native HCL and keep `${...}` runtime references verbatim.
 */
function parseHclJson(data: Record<string, unknown>, filename: string, opts: ParseJobspecOptions, baseDir: string | undefined): ApiJob {
  let buffer = '';
  const rawStrings = new Map<TemplateRef, string>();
  const walk = (v: unknown): JsonTree => {
    if (typeof v === 'string') {
      const ref = new TemplateRef(buffer.length, buffer.length + v.length);
      buffer += v + '\n';
      rawStrings.set(ref, v);
      return ref;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v as JsonTree;
  };
  const tree = walk(data) as Record<string, JsonTree>;
  const tp = templateParser(buffer, filename, JobspecError);
  const toExpr = (t: JsonTree): Expr => {
    if (t instanceof TemplateRef) return tp.parse(t.start, t.end);
    if (Array.isArray(t)) return { k: 'tuple', items: t.map(toExpr), start: 0, end: 0 };
    if (isPlainObject(t)) {
      return { k: 'object', items: Object.entries(t).map(([k, v]) => ({ key: { k: 'lit', v: k, start: 0, end: 0 }, value: toExpr(v as JsonTree) })), start: 0, end: 0 };
    }
    return { k: 'lit', v: t as Value, start: 0, end: 0 };
  };
  const attrsOf = (obj: JsonTree, what: string, rawType: boolean): Attribute[] => {
    if (!isPlainObject(obj)) throw new JobspecError(`${filename}: "${what}" must be an object`);
    return Object.entries(obj).map(([name, v]) => {
      // In HCL-JSON a variable's type is written as a string holding the type expression.
      const expr = rawType && name === 'type' && v instanceof TemplateRef ? parseExpression(rawStrings.get(v)!, filename, JobspecError) : toExpr(v as JsonTree);
      return { kind: 'attr', name, expr, start: 0 };
    });
  };
  const labelled = (v: JsonTree, what: string): Array<[string, JsonTree]> => {
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((entry) => {
      if (!isPlainObject(entry)) throw new JobspecError(`${filename}: "${what}" must map labels to blocks`);
      return Object.entries(entry).flatMap(([label, body]) => (Array.isArray(body) ? body.map((b) => [label, b] as [string, JsonTree]) : [[label, body as JsonTree] as [string, JsonTree]]));
    });
  };

  const items: Array<Attribute | Block> = [];
  const jobBodies = new Map<Block, BodyNode>();
  for (const [key, v] of Object.entries(tree)) {
    if (key === 'variable') {
      for (const [name, body] of labelled(v, key)) items.push({ kind: 'block', type: 'variable', labels: [name], body: { items: attrsOf(body, `variable "${name}"`, true) }, start: 0 });
    } else if (key === 'locals' || key === 'variables') {
      for (const body of Array.isArray(v) ? v : [v]) items.push({ kind: 'block', type: key, labels: [], body: { items: attrsOf(body, key, false) }, start: 0 });
    } else if (key === 'job') {
      for (const [id, body] of labelled(v, key)) {
        if (!isPlainObject(body)) throw new JobspecError(`${filename}: job "${id}" must be an object`);
        const block: Block = { kind: 'block', type: 'job', labels: [id], body: { items: [] } as Body, start: 0 };
        jobBodies.set(block, { kind: 'json', value: body as Record<string, JsonTree>, parse: tp.parse });
        items.push(block);
      }
    } else throw new JobspecError(`${filename}: unsupported top-level key "${key}"; expected variable, variables, locals or job`);
  }
  const file: SourceFile = { ...tp.source, lines: new LineIndex(filename, buffer, false) };
  return buildJob(file, items, opts, baseDir, (b) => jobBodies.get(b)!);
}

/** What `job run` sends next to the job so `job inspect -hcl` can show the original file. */
export interface JobSubmission {
  Source: string;
  Format: 'hcl2' | 'json';
  /** Simple-typed values from -var and NOMAD_VAR_* / SVC_VAR_* (flags win). */
  VariableFlags: Record<string, string>;
  /** Var-file contents, then complex-typed -var values as `name = value` lines. */
  Variables: string;
}

export function buildJobSubmission(source: string, opts: ParseJobspecOptions = {}): JobSubmission {
  const json = source.trimStart().startsWith('{');
  const complex = new Set<string>();
  if (!json) {
    // Types come from the declarations; a file that does not parse has already failed parseJobspec.
    try {
      const file = parseHcl(source, opts.filename ?? DEFAULT_FILENAME, JobspecError);
      for (const item of file.body.items) {
        if (item.kind !== 'block' || item.type !== 'variable') continue;
        const decl = declareVariable(file, item, undefined);
        if (!['any', 'string', 'number', 'bool'].includes(decl.type.k)) complex.add(decl.name);
      }
    } catch {
      // Leave every value simple; the submission is informational only.
    }
  }
  const flags: Record<string, string> = {};
  // The parser's precedence: SVC_VAR_x (our spelling) wins over NOMAD_VAR_x, so it is applied second.
  for (const prefix of ['NOMAD_VAR_', 'SVC_VAR_']) {
    for (const [key, value] of Object.entries(opts.env ?? {})) {
      const name = key.slice(prefix.length);
      if (key.startsWith(prefix) && value !== undefined && !complex.has(name)) flags[name] = value;
    }
  }
  const complexLines: string[] = [];
  for (const [name, value] of Object.entries(opts.variables ?? {})) {
    if (complex.has(name)) complexLines.push(`${name} = ${value}`);
    else flags[name] = value;
  }
  const parts = (opts.varFiles ?? []).map((f) => f.content + '\n');
  if (complexLines.length) parts.push(complexLines.join('\n') + '\n');
  return { Source: source, Format: json ? 'json' : 'hcl2', VariableFlags: flags, Variables: parts.join('\n') };
}
