/**
 * Policy documents: HCL or JSON text → a validated `Policy`.
 *
 * One document can hold Vault-style `path` rules (secrets API), Nomad-style `namespace` rules and one Nomad
 * `node` rule (scheduler API). Parsing is strict: anything we do not enforce (Vault's allowed_parameters,
 * wrapping TTLs, Nomad's agent/operator blocks...) is rejected rather than accepted and silently ignored,
 * because a policy author who writes a restriction must be able to trust that it applies.
 */
import { UserError } from '../../shared/errors.js';
import { readDocument, type Document } from '../../shared/hcl/document.js';
import type { SourcePos } from '../../shared/hcl/source.js';
import {
  NAMESPACE_CAPABILITIES,
  NAMESPACE_POLICY_SHORTCUTS,
  NODE_POLICIES,
  PATH_CAPABILITIES,
  expandNamespacePolicy,
  isNamespaceCapability,
  isNodePolicy,
  isPathCapability,
  type NodePolicy,
} from './capabilities.js';

export interface PathRule {
  /** Leading `/` removed; may end in `*` and contain `+` segments. */
  pattern: string;
  capabilities: string[];
}

export interface NamespaceRule {
  /** A namespace name, possibly with `*` globs. */
  pattern: string;
  /** Explicit capabilities unioned with the expanded `policy` shortcut. */
  capabilities: string[];
}

export interface Policy {
  name: string;
  /** The text as submitted, so reads return what was written. */
  text: string;
  paths: PathRule[];
  namespaces: NamespaceRule[];
  /** The `node { policy = ... }` rule; absent when the document has no node block. */
  node?: NodePolicy;
}

// Nomad's namespace-name rule, with `*` for globs.
const NAMESPACE_PATTERN = /^[a-zA-Z0-9*-]{1,128}$/;
const POLICY_NAME = /^[a-z0-9_.-]+$/;

/** Vault lower-cases policy names; we also refuse characters that would be awkward in paths and storage keys. */
export function validatePolicyName(name: string): string {
  const normalized = name.trim().toLowerCase();
  if (normalized === '') throw new UserError('policy name must not be empty');
  if (!POLICY_NAME.test(normalized) || /^\.+$/.test(normalized)) {
    throw new UserError(`policy name "${name}" is invalid: use only letters, digits, "-", "_" and "."`);
  }
  return normalized;
}

type Format = 'json' | 'hcl';

interface Ctx {
  name: string;
  text: string;
  format: Format;
  /** The HCL document read, whose bodies know where they were written; undefined for JSON. */
  document?: Document;
}

export async function parsePolicy(name: string, text: string): Promise<Policy> {
  const policy: Policy = { name, text, paths: [], namespaces: [] };
  if (text.trim() === '') return policy;
  const format: Format = text.trimStart().startsWith('{') ? 'json' : 'hcl';
  const ctx: Ctx = { name, text, format };
  const doc = format === 'json' ? decodeJson(ctx) : decodeHcl(ctx);

  const paths = new Map<string, Set<string>>();
  const namespaces = new Map<string, Set<string>>();
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'path') {
      for (const block of labeledBlocks(ctx, key, value)) addTo(paths, ...parsePathBlock(ctx, block));
    } else if (key === 'namespace') {
      for (const block of labeledBlocks(ctx, key, value)) addTo(namespaces, ...parseNamespaceBlock(ctx, block));
    } else if (key === 'node') {
      policy.node = parseNodeBlock(ctx, value);
    } else {
      throw failAt(ctx, topLevelItem(ctx, key), `unknown top-level key "${key}": only "path", "namespace" and "node" blocks are allowed`);
    }
  }
  // Repeated blocks for one pattern in one document are merged here; the Acl merges across policies.
  policy.paths = [...paths].map(([pattern, caps]) => ({ pattern, capabilities: [...caps] }));
  policy.namespaces = [...namespaces].map(([pattern, caps]) => ({ pattern, capabilities: [...caps] }));
  return policy;
}

function addTo(rules: Map<string, Set<string>>, pattern: string, capabilities: readonly string[]): void {
  const caps = rules.get(pattern) ?? new Set<string>();
  for (const c of capabilities) caps.add(c);
  rules.set(pattern, caps);
}

interface Block {
  kind: 'path' | 'namespace';
  label: string;
  body: Record<string, unknown>;
  /** Which occurrence of this kind+label in the text, to point at the right line. */
  occurrence: number;
}

function parsePathBlock(ctx: Ctx, block: Block): [string, string[]] {
  const where = `path "${block.label}"`;
  for (const key of Object.keys(block.body)) {
    if (key !== 'capabilities') {
      throw fail(ctx, block, `${where}: unknown attribute "${key}": only "capabilities" is supported`);
    }
  }
  const pattern = block.label.replace(/^\/+/, '');
  if (pattern === '') throw fail(ctx, block, `${where}: the path pattern is empty`);
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1) {
    throw fail(ctx, block, `${where}: "*" is only allowed as the last character of a path`);
  }
  // Vault forbids this too: "+*" would read as "one segment, then anything", which is just "+/*" misspelled.
  if (pattern.includes('+*')) throw fail(ctx, block, `${where}: invalid use of wildcards ("+*" is forbidden)`);

  const caps = stringList(ctx, block, where, block.body.capabilities);
  for (const c of caps) {
    if (!isPathCapability(c)) {
      throw fail(ctx, block, `${where}: unknown capability "${c}" (valid: ${PATH_CAPABILITIES.join(', ')})`);
    }
  }
  return [pattern, dedupe(caps)];
}

function parseNamespaceBlock(ctx: Ctx, block: Block): [string, string[]] {
  const where = `namespace "${block.label}"`;
  for (const key of Object.keys(block.body)) {
    if (key !== 'policy' && key !== 'capabilities') {
      throw fail(ctx, block, `${where}: unknown attribute "${key}": only "policy" and "capabilities" are supported`);
    }
  }
  if (!NAMESPACE_PATTERN.test(block.label)) {
    throw fail(ctx, block, `${where}: invalid namespace name: use 1-128 letters, digits, "-" or "*"`);
  }
  const caps = stringList(ctx, block, where, block.body.capabilities);
  for (const c of caps) {
    if (!isNamespaceCapability(c)) {
      throw fail(ctx, block, `${where}: unknown capability "${c}" (valid: ${NAMESPACE_CAPABILITIES.join(', ')})`);
    }
  }
  const shortcut = block.body.policy;
  if (shortcut !== undefined && shortcut !== '') {
    const expanded = typeof shortcut === 'string' ? expandNamespacePolicy(shortcut) : undefined;
    if (expanded === undefined) {
      const valid = Object.keys(NAMESPACE_POLICY_SHORTCUTS).join(', ');
      throw fail(ctx, block, `${where}: invalid policy ${JSON.stringify(shortcut)} (valid: ${valid})`);
    }
    caps.push(...expanded);
  }
  return [block.label, dedupe(caps)];
}

/**
 * Nomad's `node { policy = "read" }`: one unlabeled block with a required `policy`. HCL gives
 * `[body, ...]` (one entry per block); JSON may give the body itself or that same array.
 */
function parseNodeBlock(ctx: Ctx, value: unknown): NodePolicy {
  const valid = NODE_POLICIES.join(', ');
  const bodies = Array.isArray(value) && value.every(isObject) ? value : ctx.format === 'json' && isObject(value) ? [value] : undefined;
  if (bodies === undefined) {
    const expected = ctx.format === 'json' ? 'an object, as in {"node": {"policy": "read"}}' : 'a block without a label, as in node { policy = "read" }';
    throw failAt(ctx, nodePosition(ctx, 0), `"node" must be ${expected}`);
  }
  if (bodies.length === 0) throw failAt(ctx, nodePosition(ctx, 0), `node: expected a block body`);
  if (bodies.length > 1) throw failAt(ctx, nodePosition(ctx, 1), 'node: only one node block is allowed in a policy');
  const body = bodies[0];
  for (const key of Object.keys(body)) {
    if (key !== 'policy') {
      throw failAt(ctx, nodePosition(ctx, 0, key), `node: unknown attribute "${key}": only "policy" is supported`);
    }
  }
  if (!('policy' in body)) throw failAt(ctx, nodePosition(ctx, 0), `node: "policy" is required (valid: ${valid})`);
  if (!isNodePolicy(body.policy)) {
    throw failAt(ctx, nodePosition(ctx, 0, 'policy', true), `node: invalid policy ${JSON.stringify(body.policy)} (valid: ${valid})`);
  }
  return body.policy;
}

function stringList(ctx: Ctx, block: Block, where: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw fail(ctx, block, `${where}: "capabilities" must be a list of strings`);
  }
  return [...value];
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Normalises the shapes a labeled block takes: HCL gives `{label: [body, ...]}`, Vault's JSON form gives
 * `{label: body}`, and JSON may also wrap the label map in an array (`[{label: body}, ...]`).
 */
function labeledBlocks(ctx: Ctx, kind: Block['kind'], value: unknown): Block[] {
  const seen = new Map<string, number>();
  const out: Block[] = [];
  const addLabelMap = (map: Record<string, unknown>): void => {
    for (const [label, raw] of Object.entries(map)) {
      for (const body of Array.isArray(raw) ? raw : [raw]) {
        const occurrence = seen.get(label) ?? 0;
        seen.set(label, occurrence + 1);
        const block: Block = { kind, label, body: {}, occurrence };
        if (!isObject(body)) throw fail(ctx, block, `${kind} "${label}": expected a block body`);
        out.push({ ...block, body });
      }
    }
  };
  if (isObject(value)) {
    addLabelMap(value);
  } else if (Array.isArray(value) && ctx.format === 'json' && value.every(isObject)) {
    value.forEach(addLabelMap);
  } else {
    // In HCL an array here means `path { ... }` without a label; anything else is `path = ...`.
    throw failAt(ctx, topLevelItem(ctx, kind), `"${kind}" must be a labeled block, as in ${kind} "<${kind === 'path' ? 'pattern' : 'name'}>" { ... }`);
  }
  return out;
}

function decodeJson(ctx: Ctx): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(ctx.text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /at position (\d+)/.exec(message);
    const at = pos ? `${position(ctx.text, Number(pos[1]))}: ` : '';
    throw new UserError(`failed to parse policy "${ctx.name}": ${at}invalid JSON: ${message}`);
  }
  if (!isObject(doc)) throw new UserError(`failed to parse policy "${ctx.name}": a JSON policy must be an object`);
  return doc;
}

function decodeHcl(ctx: Ctx): Record<string, unknown> {
  const { name } = ctx;
  const SyntaxError = class extends UserError {
    constructor(message: string, pos: SourcePos) {
      super(`failed to parse policy "${name}": line ${pos.line}, column ${pos.column}: ${message}`);
    }
  };
  ctx.document = readDocument(ctx.text, name, SyntaxError);
  return ctx.document.value;
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function fail(ctx: Ctx, block: Block, message: string): UserError {
  const place = ctx.document?.place(block.body);
  if (place) return failAt(ctx, place.start, message);
  const line = blockLine(ctx, block);
  const at = line === undefined ? '' : `line ${line}: `;
  return new UserError(`failed to parse policy "${ctx.name}": ${at}${message}`);
}

/** Where the first top-level item of that name is written in an HCL policy. */
function topLevelItem(ctx: Ctx, name: string): number | undefined {
  return ctx.document?.place(ctx.document.value)?.items.get(name)?.[0];
}

/**
 * JSON.parse drops positions, so a JSON block is found by searching the text for its key. Best effort:
 * when the label is written with escapes we cannot reproduce, the line is simply omitted.
 */
function blockLine(ctx: Ctx, block: Block): number | undefined {
  const header = new RegExp(`${escapeRegExp(JSON.stringify(block.label))}\\s*:`, 'g');
  let match: RegExpExecArray | null = null;
  for (let i = 0; i <= block.occurrence; i++) {
    match = header.exec(ctx.text);
    if (match === null) return undefined;
  }
  return match === null ? undefined : ctx.text.slice(0, match.index).split('\n').length;
}

function failAt(ctx: Ctx, offset: number | undefined, message: string): UserError {
  const at = offset === undefined ? '' : `${position(ctx.text, offset)}: `;
  return new UserError(`failed to parse policy "${ctx.name}": ${at}${message}`);
}

/**
 * The offset where the `occurrence`-th node block (0-based) starts; with `key`, where that key sits in it;
 * with `atValue`, where the key's value starts. Best effort: undefined when the block cannot be found, and
 * the block's start when the key cannot.
 */
function nodePosition(ctx: Ctx, occurrence: number, key?: string, atValue = false): number | undefined {
  return ctx.document ? hclNodePosition(ctx.document, occurrence, key, atValue) : jsonNodePosition(ctx.text, occurrence, key, atValue);
}

function hclNodePosition(document: Document, occurrence: number, key: string | undefined, atValue: boolean): number | undefined {
  const start = document.place(document.value)?.items.get('node')?.[occurrence];
  if (start === undefined || key === undefined) return start;
  const bodies = document.value.node;
  const body = Array.isArray(bodies) ? bodies[occurrence] : undefined;
  const place = isObject(body) ? document.place(body) : undefined;
  return (atValue ? place?.values.get(key) : undefined) ?? place?.items.get(key)?.[0] ?? start;
}

interface Token {
  offset: number;
  /** Brace/bracket nesting before the token; a closing bracket carries the depth it closes back to. */
  depth: number;
  kind: 'string' | 'punct' | 'other';
  text: string;
}

/** A rough JSON tokenizer, only run to place an error: it yields strings and punctuation, tracking nesting. */
function tokenizeJson(text: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out.push({ offset: i, depth, kind: 'string', text: text.slice(i, j + 1) });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const word = /^[A-Za-z_][\w-]*/.exec(text.slice(i, i + 256))![0];
      out.push({ offset: i, depth, kind: 'other', text: word });
      i += word.length;
    } else {
      if (ch === '}' || ch === ']') depth = Math.max(0, depth - 1);
      out.push({ offset: i, depth, kind: 'punct', text: ch });
      if (ch === '{' || ch === '[') depth++;
      i++;
    }
  }
  return out;
}

/** A JSON key spelled `name`. */
function isName(tok: Token | undefined, name: string): boolean {
  return tok !== undefined && tok.kind === 'string' && tok.text === JSON.stringify(name);
}

function jsonNodePosition(text: string, occurrence: number, key: string | undefined, atValue: boolean): number | undefined {
  const toks = tokenizeJson(text);
  // The top-level `node` keys: inside the outer object, followed by a colon.
  const headers: number[] = [];
  toks.forEach((t, i) => {
    if (t.depth === 1 && isName(t, 'node') && toks[i + 1]?.text === ':') headers.push(i);
  });
  if (headers.length === 0) return undefined;
  // JSON.parse keeps the last of repeated keys; several blocks are the elements of an array value.
  let start = headers[headers.length - 1];
  const value = start + 2;
  if (toks[value]?.text === '[') {
    const elements: number[] = [];
    for (let i = value + 1; i < toks.length && toks[i].depth > toks[value].depth; i++) {
      if (toks[i].text === '{' && toks[i].depth === toks[value].depth + 1) elements.push(i);
    }
    start = elements[occurrence] ?? start;
  }
  const open = key === undefined ? -1 : toks.findIndex((t, i) => i > start && t.text === '{');
  if (open === -1) return toks[start].offset;
  const inner = toks[open].depth + 1;
  for (let i = open + 1; i < toks.length && toks[i].depth >= inner; i++) {
    if (toks[i].depth !== inner || !isName(toks[i], key!)) continue;
    const sep = toks[i + 1];
    return atValue && sep?.text === ':' && toks[i + 2] ? toks[i + 2].offset : toks[i].offset;
  }
  return toks[start].offset;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
