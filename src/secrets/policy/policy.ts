/**
 * Policy documents: HCL or JSON text → a validated `Policy`.
 *
 * One document can hold Vault-style `path` rules (secrets API), Nomad-style `namespace` rules and one Nomad
 * `node` rule and one `agent` rule (scheduler API). Parsing is strict: anything we do not enforce (Vault's
 * allowed_parameters, wrapping TTLs, Nomad's operator blocks...) is rejected rather than accepted and silently ignored,
 * because a policy author who writes a restriction must be able to trust that it applies.
 */
import { UserError } from '../../shared/errors.js';
import { readDocument, type Document } from '../../shared/hcl/document.js';
import { readJsonDocument } from '../../shared/hcl/json-document.js';
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
  /** The `agent { policy = ... }` rule (the agent's metrics, Nomad's agent:read); absent without an agent block. */
  agent?: NodePolicy;
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
  format: Format;
  /** The document read, whose bodies know where they were written. */
  document: Document;
}

export async function parsePolicy(name: string, text: string): Promise<Policy> {
  const policy: Policy = { name, text, paths: [], namespaces: [] };
  if (text.trim() === '') return policy;
  const format: Format = text.trimStart().startsWith('{') ? 'json' : 'hcl';
  const ctx: Ctx = { name, format, document: readPolicy(name, text, format) };
  const doc = ctx.document.value;

  const paths = new Map<string, Set<string>>();
  const namespaces = new Map<string, Set<string>>();
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'path') {
      for (const block of labeledBlocks(ctx, key, value)) addTo(paths, ...parsePathBlock(ctx, block));
    } else if (key === 'namespace') {
      for (const block of labeledBlocks(ctx, key, value)) addTo(namespaces, ...parseNamespaceBlock(ctx, block));
    } else if (key === 'node' || key === 'agent') {
      policy[key] = parseRuleBlock(ctx, key, value);
    } else {
      throw failAt(ctx, topLevelItem(ctx, key), `unknown top-level key "${key}": only "path", "namespace", "node" and "agent" blocks are allowed`);
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
  /** Where the block is written, to cite it. */
  at: number | undefined;
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
 * Nomad's `node { policy = "read" }` and `agent { policy = "read" }`: one unlabeled block with a required
 * `policy`. HCL gives `[body, ...]` (one entry per block); JSON may give the body itself or that same array.
 */
function parseRuleBlock(ctx: Ctx, kind: 'node' | 'agent', value: unknown): NodePolicy {
  const valid = NODE_POLICIES.join(', ');
  const bodies = Array.isArray(value) && value.every(isObject) ? value : ctx.format === 'json' && isObject(value) ? [value] : undefined;
  if (bodies === undefined) {
    const expected = ctx.format === 'json' ? `an object, as in {"${kind}": {"policy": "read"}}` : `a block without a label, as in ${kind} { policy = "read" }`;
    throw failAt(ctx, topLevelItem(ctx, kind), `"${kind}" must be ${expected}`);
  }
  if (bodies.length === 0) throw failAt(ctx, topLevelItem(ctx, kind), `${kind}: expected a block body`);
  if (bodies.length > 1) throw failAt(ctx, nodePosition(ctx, bodies[1]), `${kind}: only one ${kind} block is allowed in a policy`);
  const body = bodies[0];
  for (const key of Object.keys(body)) {
    if (key !== 'policy') {
      throw failAt(ctx, nodePosition(ctx, body, key), `${kind}: unknown attribute "${key}": only "policy" is supported`);
    }
  }
  if (!('policy' in body)) throw failAt(ctx, nodePosition(ctx, body), `${kind}: "policy" is required (valid: ${valid})`);
  if (!isNodePolicy(body.policy)) {
    throw failAt(ctx, nodePosition(ctx, body, 'policy', true), `${kind}: invalid policy ${JSON.stringify(body.policy)} (valid: ${valid})`);
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
  const out: Block[] = [];
  const addLabelMap = (map: Record<string, unknown>): void => {
    // A block is cited where its body is placed, else at its label (a value that is not a body).
    const labelAt = (label: string) => ctx.document.place(map)?.items.get(label)?.[0];
    for (const [label, raw] of Object.entries(map)) {
      for (const body of Array.isArray(raw) ? raw : [raw]) {
        const at = (isObject(body) ? ctx.document.place(body)?.start : undefined) ?? labelAt(label);
        if (!isObject(body)) throw failAt(ctx, at, `${kind} "${label}": expected a block body`);
        out.push({ kind, label, body, at });
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

/** Reads the text as plain data; a syntax error is cited by line and column, as every other error is. */
function readPolicy(name: string, text: string, format: Format): Document {
  const SyntaxError = class extends UserError {
    constructor(message: string, pos: SourcePos) {
      super(`failed to parse policy "${name}": line ${pos.line}, column ${pos.column}: ${format === 'json' ? 'invalid JSON: ' : ''}${message}`);
    }
  };
  return format === 'json' ? readJsonDocument(text, name, SyntaxError) : readDocument(text, name, SyntaxError);
}

function fail(ctx: Ctx, block: Block, message: string): UserError {
  return failAt(ctx, block.at, message);
}

/** Where the first top-level item of that name is written. */
function topLevelItem(ctx: Ctx, name: string): number | undefined {
  return ctx.document.place(ctx.document.value)?.items.get(name)?.[0];
}

function failAt(ctx: Ctx, offset: number | undefined, message: string): UserError {
  const pos = offset === undefined ? undefined : ctx.document.lines.pos(offset);
  const at = pos === undefined ? '' : `line ${pos.line}, column ${pos.column}: `;
  return new UserError(`failed to parse policy "${ctx.name}": ${at}${message}`);
}

/** Where a node or agent body is written; with `key`, where that key sits in it; with `atValue`, where its value starts. */
function nodePosition(ctx: Ctx, body: object, key?: string, atValue = false): number | undefined {
  const place = ctx.document.place(body);
  if (key === undefined) return place?.start;
  return (atValue ? place?.values.get(key) : undefined) ?? place?.items.get(key)?.[0] ?? place?.start;
}
