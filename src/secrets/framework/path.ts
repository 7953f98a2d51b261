/**
 * The secrets side's declarative endpoints, in Vault's shape: a backend is an ordered list of paths; a
 * path has a pattern, field schemas and one handler per operation. The same declaration answers
 * requests, `svc path-help`, and the CLI's generated flags.
 */
import type { Fields, Operation } from '../../framework/schema/field-schema.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { SecretsContext } from '../context.js';
import type { TokenEntry } from '../token/token-entry.js';
import type { RenewSettings } from '../token/token-service.js';
import type { SecretsRequest, SecretsResponse } from './request.js';

export type Handler = (req: SecretsRequest, data: FieldData) => Promise<SecretsResponse | void>;

export interface OperationDef {
  handler: Handler;
  summary: string;
}

export interface PathDef {
  /**
   * Segments separated by '/': literal text, `:name` for one segment, `*name` for one or more segments:
   * the rest of the path, or all but as many as the literal segments that follow it (`auth/*path/tune`).
   * A path parameter is also a field and must be declared in `fields`.
   */
  pattern: string;
  fields: Fields;
  operations: Partial<Record<Operation, OperationDef>>;
  /** Decides create vs update for POST/PUT, which need different capabilities; without it, writes are updates. */
  existenceCheck?: (req: SecretsRequest, data: FieldData) => Promise<boolean> | boolean;
  /** HEAD is answered as the read, without its body (sys/health, as Vault; elsewhere HEAD is 405). */
  head?: boolean;
  /** No token needed (login, health). */
  unauthenticated?: boolean;
  /**
   * With `unauthenticated`: the handlers never look at the caller, so a token sent along is not even
   * resolved (sys/health, which load balancers poll; a `?help=1` still needs a valid one).
   */
  tokenIgnored?: boolean;
  /** The caller also needs the `sudo` capability on the path. */
  sudo?: boolean;
  /**
   * HTTP PATCH is served, as Vault's framework PatchOperation: the body is a JSON merge patch (RFC 7386)
   * over what the read operation answers, written through the update operation. Needs both.
   */
  patch?: boolean;
  /**
   * HTTP PATCH answered by this handler instead (the body is a JSON merge patch the path applies by its
   * own rules); needs the `patch` capability.
   */
  patchHandler?: Handler;
  /**
   * The body is the caller's own data (KV version 1's secrets, Vault's TakesArbitraryInput): its keys
   * are not fields, are not warned about, and reach the handler as `input`.
   */
  takesArbitraryInput?: boolean;
  synopsis: string;
  description: string;
  /** Set on generated deprecated aliases: the current path to use instead. */
  deprecatedFor?: string;
}

export interface Backend {
  type: string;
  description: string;
  paths: PathDef[];
  /**
   * Re-checks a login when its token is renewed (the role still exists, the instance or principal still
   * qualifies) and answers the lease settings now in force; throws to refuse the renewal.
   */
  renew?: (services: SecretsContext, token: TokenEntry) => Promise<RenewSettings>;
}

export function definePath(def: PathDef): PathDef {
  for (const segment of def.pattern.split('/')) {
    const param = segment.startsWith(':') || segment.startsWith('*') ? segment.slice(1) : undefined;
    if (param && !def.fields[param]) throw new Error(`path "${def.pattern}": parameter "${param}" has no field schema`);
  }
  return def;
}

export interface PathMatch {
  def: PathDef;
  params: Record<string, string>;
}

/** A pattern split once: its segments, and for a `*name` segment the literal segments after it. */
interface CompiledPattern {
  def: PathDef;
  segments: string[];
  /** the index of the `*name` segment, or -1 */
  star: number;
  tail: string[];
}

/**
 * Each backend's paths, compiled on its first request, and again once the list no longer holds the paths
 * they were compiled from (a backend's list is fixed once declared, but for a test that adds one).
 */
const compiled = new WeakMap<PathDef[], CompiledPattern[]>();

function compile(def: PathDef): CompiledPattern {
  const segments = def.pattern === '' ? [] : def.pattern.split('/');
  const star = segments.findIndex((seg) => seg.startsWith('*'));
  return { def, segments, star, tail: star === -1 ? [] : segments.slice(star + 1) };
}

/** Matches a path (relative to the mount, no leading or trailing slash) against a backend's paths, in order. */
export function matchPath(paths: PathDef[], path: string): PathMatch | undefined {
  let patterns = compiled.get(paths);
  if (patterns?.length !== paths.length || patterns.some((p, i) => p.def !== paths[i])) compiled.set(paths, (patterns = paths.map(compile)));
  const parts = path === '' ? [] : path.split('/');
  for (const pattern of patterns) {
    const params = matchSegments(pattern, parts);
    if (params) return { def: pattern.def, params };
  }
  return undefined;
}

function matchSegments({ segments, star, tail }: CompiledPattern, parts: string[]): Record<string, string> | undefined {
  // Without a `*`, only a path of as many segments can match: most patterns are ruled out on that alone.
  if (star === -1 ? parts.length !== segments.length : parts.length < segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (i === star) {
      const end = parts.length - tail.length;
      if (end <= i || tail.some((t, j) => t !== parts[end + j])) return undefined;
      params[seg.slice(1)] = parts.slice(i, end).join('/');
      return params;
    }
    if (seg.startsWith(':')) {
      if (parts[i] === '') return undefined;
      params[seg.slice(1)] = parts[i];
    } else if (seg !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
