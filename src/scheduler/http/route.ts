/**
 * The scheduler side's route table entries: method, path, the ACL capability Nomad's API documentation
 * names for the endpoint, the query parameters, and the handler. Errors become plain-text bodies as
 * Nomad answers them.
 */
import type { Fields } from '../../framework/schema/field-schema.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { RawRequest, ResponseStream } from '../../framework/http/types.js';
import type { SchedulerContext } from '../context.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import type { AnonymousCaller, Caller, NodeCaller } from './caller.js';

/** What a route answers to a token: its ACL is checked before the handler runs. */
export type TokenAclRequirement =
  /** any one of these capabilities on the request's namespace */
  | { namespace: readonly string[] }
  /** a management (root) token */
  | { management: true }
  /** Nomad's node rule: `read` to read nodes, `write` to change them (a `write` rule also reads) */
  | { node: 'read' | 'write' }
  /** Nomad's agent rule: `read` to read the agent (its config, its log), `write` to change it */
  | { agent: 'read' | 'write' }
  /** any valid token (the handler filters by namespace access) */
  | { authenticated: true };

/** The node named by `:node_id`, proving itself with its SecretID as the token (the node API). */
export type NodeAclRequirement = { nodeSecret: true };

/** A node registering itself (Node.ID in the body) with the SecretID it is known by, or a management token. */
export type RegistrationAclRequirement = { nodeRegistration: true };

/** No token needed, as Nomad's "ACL Required: none" (the status endpoints); a token sent must be a valid one. */
export type OpenAclRequirement = { open: true };

export type AclRequirement = TokenAclRequirement | NodeAclRequirement | RegistrationAclRequirement | OpenAclRequirement;

export interface SchedulerRequest<C extends Caller | AnonymousCaller = TokenCaller> {
  requestId: string;
  raw: RawRequest;
  params: Record<string, string>;
  query: FieldData;
  /** the `namespace` query parameter, default `default`; may be `*` on routes that allow it */
  namespace: string;
  caller: C;
  services: SchedulerContext;
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

/**
 * A route: the kind of its `acl` decides who its handler is called for, so a handler that reads the
 * token (its accessor, its ACL) is only ever given a token caller, and a node route only a node.
 */
interface RouteOf<A extends AclRequirement, C extends Caller | AnonymousCaller> {
  methods: readonly string[];
  /** '/v1/namespace/:name'; `*name` takes one or more segments and may be followed by literal segments */
  path: string;
  acl: A;
  query?: Fields;
  /** supports blocking queries (`index`, `wait`) */
  blocking?: boolean;
  /** accepts namespace `*` */
  allNamespaces?: boolean;
  /** answered by the cluster's leader only: another server forwards the request to it */
  leaderOnly?: true;
  /**
   * reaches into the node that runs the allocation `:alloc_id` (signal, files, logs ...): answered by the
   * server that reaches that node, to which another server forwards the request
   */
  allocNode?: true;
  synopsis: string;
  handler: (req: SchedulerRequest<C>) => Promise<RouteResult>;
}

export type TokenRouteDef = RouteOf<TokenAclRequirement, TokenCaller>;
export type NodeRouteDef = RouteOf<NodeAclRequirement, NodeCaller>;
export type RegistrationRouteDef = RouteOf<RegistrationAclRequirement, Caller>;
export type OpenRouteDef = RouteOf<OpenAclRequirement, TokenCaller | AnonymousCaller>;
export type RouteDef = TokenRouteDef | NodeRouteDef | RegistrationRouteDef | OpenRouteDef;

export function defineRoute(def: NodeRouteDef): NodeRouteDef;
export function defineRoute(def: RegistrationRouteDef): RegistrationRouteDef;
export function defineRoute(def: OpenRouteDef): OpenRouteDef;
export function defineRoute(def: TokenRouteDef): TokenRouteDef;
export function defineRoute(def: RouteDef): RouteDef {
  return def;
}

export const isNodeRoute = (route: RouteDef): route is NodeRouteDef => 'nodeSecret' in route.acl;
export const isRegistrationRoute = (route: RouteDef): route is RegistrationRouteDef => 'nodeRegistration' in route.acl;
export const isOpenRoute = (route: RouteDef): route is OpenRouteDef => 'open' in route.acl;

/** A route pattern split once: matching runs on every request, against every route. */
interface CompiledPattern {
  segs: string[];
  /** index of the `*name` segment, -1 when there is none */
  star: number;
  /** how many segments are literal: the more, the more specific the route */
  literals: number;
}

const compiled = new Map<string, CompiledPattern>();

function compile(pattern: string): CompiledPattern {
  let c = compiled.get(pattern);
  if (!c) {
    const segs = pattern.split('/').filter((s) => s !== '');
    c = { segs, star: segs.findIndex((s) => s.startsWith('*')), literals: segs.filter((s) => !s.startsWith(':') && !s.startsWith('*')).length };
    compiled.set(pattern, c);
  }
  return c;
}

/** The number of literal segments of a route pattern (`/v1/job/*job_id/versions` has three). */
export const literalSegments = (pattern: string): number => compile(pattern).literals;

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
