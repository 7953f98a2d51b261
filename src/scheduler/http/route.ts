/**
 * The scheduler side's route table entries: method, path, the ACL capability the spec's ACL column names,
 * the query parameters, and the handler. Errors become plain-text bodies as Nomad answers them.
 */
import type { Fields } from '../../server/framework/field-schema.js';
import type { FieldData } from '../../server/framework/field-data.js';
import type { Caller, RawRequest, ResponseStream } from '../../server/http/types.js';
import type { Services } from '../../server/services.js';

export type AclRequirement =
  /** any one of these capabilities on the request's namespace */
  | { namespace: readonly string[] }
  /** a management (root) token */
  | { management: true }
  /** Nomad's node rule: `read` to read nodes, `write` to change them (a `write` rule also reads) */
  | { node: 'read' | 'write' }
  /** any valid token (the handler filters by namespace access) */
  | { authenticated: true }
  /** the node named by `:node_id`, proving itself with its SecretID as the token (the node API) */
  | { nodeSecret: true }
  /** a node registering itself (Node.ID in the body) with the SecretID it is known by, or a management token */
  | { nodeRegistration: true };

export interface SchedulerRequest {
  requestId: string;
  raw: RawRequest;
  params: Record<string, string>;
  query: FieldData;
  /** the `namespace` query parameter, default `default`; may be `*` on routes that allow it */
  namespace: string;
  caller: Caller;
  services: Services;
  /** the JSON body, parsed; 400 when malformed */
  body(): unknown;
}

export interface RouteResult {
  body: unknown;
  status?: number;
  /** the X-Svc-Index of this answer (the index of the data it was built from) */
  index?: number;
  headers?: Record<string, string>;
  /**
   * Instead of `body` as JSON: a body written over time (file contents, log frames), with its
   * content-type in `headers`. Its signal also aborts when the server shuts down. Check everything that
   * can fail before returning it: once it runs, the status is sent.
   */
  stream?: ResponseStream;
}

export interface RouteDef {
  methods: readonly string[];
  /** '/v1/namespace/:name'; `*name` takes one or more segments and may be followed by literal segments */
  path: string;
  acl: AclRequirement;
  query?: Fields;
  /** supports blocking queries (`index`, `wait`) */
  blocking?: boolean;
  /** accepts namespace `*` */
  allNamespaces?: boolean;
  synopsis: string;
  handler(req: SchedulerRequest): Promise<RouteResult>;
}

export function defineRoute(def: RouteDef): RouteDef {
  return def;
}

/** A route pattern split once: matching runs on every request, against every route. */
interface CompiledPattern {
  segs: string[];
  /** index of the `*name` segment, -1 when there is none */
  star: number;
}

const compiled = new Map<string, CompiledPattern>();

function compile(pattern: string): CompiledPattern {
  let c = compiled.get(pattern);
  if (!c) {
    const segs = pattern.split('/').filter((s) => s !== '');
    c = { segs, star: segs.findIndex((s) => s.startsWith('*')) };
    compiled.set(pattern, c);
  }
  return c;
}

/** Matches segs[from, to) against parts starting at `at`, one segment each; false on the first mismatch. */
function matchFixed(segs: string[], from: number, to: number, parts: string[], at: number, params: Record<string, string>): boolean {
  for (let i = from; i < to; i++) {
    const seg = segs[i];
    const part = parts[at + i - from];
    if (seg.charCodeAt(0) === 58 /* ':' */) {
      if (part === '') return false;
      params[seg.slice(1)] = part;
    } else if (seg !== part) return false;
  }
  return true;
}

/** Matches a URL path (already split into decoded segments) against a route pattern. */
export function matchRoute(pattern: string, parts: string[]): Record<string, string> | undefined {
  const { segs, star } = compile(pattern);
  const params: Record<string, string> = {};
  if (star === -1) {
    return segs.length === parts.length && matchFixed(segs, 0, segs.length, parts, 0, params) ? params : undefined;
  }
  const after = segs.length - star - 1;
  if (parts.length < segs.length) return undefined;
  if (!matchFixed(segs, 0, star, parts, 0, params)) return undefined;
  if (!matchFixed(segs, star + 1, segs.length, parts, parts.length - after, params)) return undefined;
  const middle = parts.slice(star, parts.length - after).join('/');
  if (middle === '') return undefined;
  params[segs[star].slice(1)] = middle;
  return params;
}
