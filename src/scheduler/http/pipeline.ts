/**
 * The scheduler API pipeline: route table lookup, token and namespace ACL, query coercion, blocking
 * queries, and Nomad's plain-text errors.
 */
import { nestsDeeperThan, tooDeep } from '../../shared/json-depth.js';
import { jsonSyntaxProblem } from '../../framework/http/json-error.js';
import { checkKeyPart } from '../../shared/key-length.js';
import { PermissionDenied, UnsupportedOperation, UserError } from '../../shared/errors.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { FieldData } from '../../framework/schema/field-data.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import { classify, schedulerError, schedulerJson } from '../../framework/http/respond.js';
import type { RawRequest, RawResponse, ResponseStream } from '../../framework/http/types.js';
import type { SchedulerContext } from '../context.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import { authenticate, authenticateNode, registeringNode, type AnonymousCaller, type Caller } from './caller.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import { nodeServerFor } from './node-forward.js';
import { withNomadTwins } from './nomad-headers.js';
import { isNodeRoute, isOpenRoute, isRegistrationRoute, literalSegments, matchRoute, type AclRequirement, type RouteDef, type RouteResult, type SchedulerRequest } from './route.js';
import { unlessAborted } from '../../shared/unless-aborted.js';

/** Query parameters every scheduler endpoint accepts. */
export const COMMON_QUERY: Fields = {
  namespace: { type: 'string', description: 'The target namespace.', default: 'default' },
  region: { type: 'string', description: 'The target region; svc serves one region and accepts any value.' },
  stale: { type: 'string', description: 'Allow a stale answer; one server always answers consistently.' },
  index: { type: 'int', description: 'Blocking query: wait until the data changes past this index.' },
  wait: { type: 'string', description: 'Blocking query: how long to wait (default 5m, at most 300s).' },
};

const MAX_WAIT_MS = 300_000;

/**
 * Each route's query parameters (the common ones and its own), merged once: a route is declared once,
 * and the field schema's index (aliases, required fields) is kept by the schema object's identity.
 */
const querySchemas = new WeakMap<RouteDef, Fields>();

function querySchemaOf(route: RouteDef): Fields {
  let schema = querySchemas.get(route);
  if (!schema) querySchemas.set(route, (schema = { ...COMMON_QUERY, ...route.query }));
  return schema;
}

/** The route's second path segment (`job` in /v1/job/...) when it is literal; undefined when any segment matches there. */
function secondLiteral(route: RouteDef): string | undefined {
  const second = route.path.split('/').filter((s) => s !== '')[1];
  return second === undefined || second.startsWith(':') || second.startsWith('*') ? undefined : second;
}

/** Per route table: second segment → the routes that can match it, in table order ('' for any other segment). */
const indexes = new WeakMap<RouteDef[], Map<string, RouteDef[]>>();

function routeIndex(routes: RouteDef[]): Map<string, RouteDef[]> {
  let index = indexes.get(routes);
  if (!index) {
    const seconds = routes.map(secondLiteral);
    index = new Map([['', routes.filter((_, i) => seconds[i] === undefined)]]);
    for (const key of new Set(seconds)) {
      if (key !== undefined) index.set(key, routes.filter((_, i) => seconds[i] === key || seconds[i] === undefined));
    }
    indexes.set(routes, index);
  }
  return index;
}

/**
 * Routes matching the path, most specific first: job IDs may contain '/', so `/v1/job/*job_id` also
 * matches `/v1/job/web/versions`, and the route with more literal segments (`.../versions`) must win.
 * Only the routes that can match the path's second segment are tried: this runs on every request.
 */
export function findRoute(routes: RouteDef[], parts: string[]): { route: RouteDef; params: Record<string, string> }[] {
  const index = routeIndex(routes);
  const found: { route: RouteDef; params: Record<string, string> }[] = [];
  for (const route of index.get(parts[1] ?? '') ?? index.get('')!) {
    const params = matchRoute(route.path, parts);
    if (params) found.push({ route, params });
  }
  return found.sort((a, b) => literalSegments(b.route.path) - literalSegments(a.route.path));
}

/** Query parameters whose values are looked up by key. */
const KEY_QUERY = ['namespace', 'prefix', 'next_token', 'region', 'node_id', 'job_id', 'task'];

export const NODE_CERT_REQUIRED = 'a client certificate signed by the cluster CA is required';

/** The node API: the routes nodes call (register, heartbeat, their allocations and updates to them). */
const isNodeApi = (route: RouteDef) => isNodeRoute(route) || isRegistrationRoute(route);

/** The request without its caller: what every route's handler is given besides who calls. */
type BaseRequest = Omit<SchedulerRequest<never>, 'caller'>;

/**
 * Who calls the route, and the route's handler bound to that caller. The route's ACL kind decides: a
 * node route is served to the node named by the path, a registration to the node it registers (or to a
 * token), an open route to anyone (but a token sent must be valid, as Nomad refuses an unknown one), any
 * other route to a token only.
 */
async function bindCaller(route: RouteDef, raw: RawRequest, params: Record<string, string>, services: SchedulerContext): Promise<{ caller: Caller | AnonymousCaller; serve: (req: BaseRequest) => Promise<RouteResult> }> {
  if (isNodeRoute(route)) {
    const caller = authenticateNode(raw, params.node_id ?? '', services);
    return { caller, serve: (req) => route.handler({ ...req, caller }) };
  }
  if (isRegistrationRoute(route)) {
    const caller: Caller = registeringNode(raw, services) ?? (await authenticate(raw, services));
    return { caller, serve: (req) => route.handler({ ...req, caller }) };
  }
  if (isOpenRoute(route)) {
    const caller: TokenCaller | AnonymousCaller = tokenFromHeaders(raw.headers) ? await authenticate(raw, services) : { kind: 'anonymous' };
    return { caller, serve: (req) => route.handler({ ...req, caller }) };
  }
  const caller = await authenticate(raw, services);
  return { caller, serve: (req) => route.handler({ ...req, caller }) };
}

function checkAcl(req: AclRequirement, caller: TokenCaller, namespace: string): void {
  const { acl } = caller;
  if (acl.root || 'open' in req) return;
  // Node routes answer only to nodes (their secret was checked before), registration also to management.
  if ('management' in req || 'nodeRegistration' in req || 'nodeSecret' in req) throw new PermissionDenied('Permission denied');
  if ('node' in req) {
    if (!acl.allowsNode(req.node)) throw new PermissionDenied('Permission denied');
    return;
  }
  if ('agent' in req) {
    if (!acl.allowsAgent(req.agent)) throw new PermissionDenied('Permission denied');
    return;
  }
  if ('authenticated' in req) return;
  if (namespace === '*') return; // the handler filters what a `*` listing returns by namespace access
  if (!req.namespace.some((cap) => acl.allowsNamespace(namespace, cap))) throw new PermissionDenied('Permission denied');
}

function waitMs(text: string | null): number {
  if (text === null || text === '') return MAX_WAIT_MS;
  const secs = parseDurationSeconds(text);
  if (secs === undefined || secs < 0 || /^\d+$/.test(text)) throw new UserError('Invalid wait time');
  return Math.min(secs * 1000, MAX_WAIT_MS);
}

/**
 * A route's stream, ended by the server's shutdown as well as by the client: shutdown aborts first and
 * closes storage last, so a follow stops reading state before storage goes, and its connection is idle
 * (closable at once) instead of holding close() up. Failures once streaming are logged here, since the
 * client only sees the connection cut.
 */
function untilShutdown(stream: ResponseStream, raw: RawRequest, requestId: string, services: SchedulerContext): ResponseStream {
  return async (write, clientGone) => {
    const signal = AbortSignal.any([clientGone, services.shutdown]);
    try {
      await stream(write, signal);
    } catch (err) {
      if (!signal.aborted) services.log.error(`request ${requestId} ${raw.method} ${raw.path}: streaming failed: ${(err as Error)?.stack ?? String(err)}`);
      throw err;
    }
  };
}

export async function handleScheduler(
  raw: RawRequest,
  parts: string[],
  requestId: string,
  services: SchedulerContext,
  routes: RouteDef[],
): Promise<RawResponse | undefined> {
  const matched: { route?: string } = {};
  const answer = await answerScheduler(raw, parts, requestId, services, routes, matched);
  if (answer) answer.route = matched.route;
  return answer;
}

/** The answer; `matched.route` is set to the pattern of the route that answers once one is found. */
async function answerScheduler(
  raw: RawRequest,
  parts: string[],
  requestId: string,
  services: SchedulerContext,
  routes: RouteDef[],
  matched: { route?: string },
): Promise<RawResponse | undefined> {
  const candidates = findRoute(routes, parts);
  try {
    if (candidates.length === 0) {
      // Who may not ask learns nothing, not even which paths exist: a 404 needs a valid token.
      await authenticate(raw, services);
      return undefined;
    }
    // Only the most specific routes count: `DELETE /v1/job/web/scale` is a method the scale endpoint
    // lacks (405), never a stop of a job named "web/scale" (name it `web%2Fscale` for that).
    const specific = literalSegments(candidates[0].route.path);
    const hit = candidates.find((c) => literalSegments(c.route.path) === specific && c.route.methods.includes(raw.method));
    if (!hit) {
      // Who may not ask learns nothing, not even which methods a path has.
      await authenticate(raw, services);
      throw new UnsupportedOperation('Invalid method');
    }
    const { route, params } = hit;
    matched.route = route.path;
    // Before the node's secret: without the certificate, nothing about the node is looked at.
    if (services.config.nodeClientCert && isNodeApi(route) && !raw.clientCertVerified) throw new PermissionDenied(NODE_CERT_REQUIRED);
    // The leader checks who asks, as it would had the request come to it directly.
    if (route.leaderOnly && !services.scheduler.leading) return await services.forwardToLeader(raw);
    const nodeServer = route.allocNode ? nodeServerFor(services, params.alloc_id ?? '', raw.headers) : undefined;
    if (nodeServer) {
      // A relayed follow ends at shutdown as one served here does.
      const relayed = await services.forwardToNode.request(raw, nodeServer);
      return relayed.stream ? { ...relayed, stream: untilShutdown(relayed.stream, raw, requestId, services) } : relayed;
    }
    const { caller, serve } = await bindCaller(route, raw, params, services);
    // Names from the path and the query become storage keys or lookups: too long is a 400, said to a
    // caller who proved who it is before anything else is read.
    for (const [name, value] of Object.entries(params)) checkKeyPart(name, value);
    for (const name of KEY_QUERY) {
      const value = raw.query.get(name);
      if (value !== null) checkKeyPart(`query parameter "${name}"`, value);
    }
    // A use is counted for every authenticated request, allowed or not.
    if (caller.kind === 'token') await services.tokens.use(caller.token);

    const queryRaw: Record<string, unknown> = {};
    for (const [k, v] of raw.query) queryRaw[k] = v;
    const schema = querySchemaOf(route);
    // Nomad ignores query parameters it does not know; keep only the declared ones.
    for (const k of Object.keys(queryRaw)) if (!schema[k]) delete queryRaw[k];
    if (queryRaw.index !== undefined && !/^\d+$/.test(String(queryRaw.index))) throw new UserError('Invalid index');
    const query = new FieldData(queryRaw, schema, 'read');
    const namespace = query.get<string>('namespace') || 'default';
    if (namespace === '*' && !route.allNamespaces) throw new UserError('namespace "*" is only accepted by list endpoints');
    // A node proved who it is; what it may touch, its routes check (only its own records).
    if (caller.kind === 'token') checkAcl(route.acl, caller, namespace);

    let parsedBody: unknown;
    let bodyParsed = false;
    const req: BaseRequest = {
      requestId,
      raw,
      params,
      query,
      namespace,
      services,
      body() {
        if (!bodyParsed) {
          bodyParsed = true;
          if (raw.body.length === 0) parsedBody = undefined;
          else {
            if (nestsDeeperThan(raw.body)) throw new UserError(`Failed to decode request body: ${tooDeep()}`);
            try {
              parsedBody = JSON.parse(raw.body.toString('utf8'));
            } catch (err) {
              throw new UserError(`Failed to decode request body: ${jsonSyntaxProblem(err)}`);
            }
          }
        }
        return parsedBody;
      },
    };

    // The store index the answer was built at: a re-run is worth it only after a write past it.
    let seen = services.store.index();
    let result: RouteResult = await serve(req);
    const minIndex = query.get<number>('index');
    if (route.blocking && minIndex > 0) {
      const deadline = Date.now() + waitMs(raw.query.get('wait'));
      // Re-run until the answer's index passes the caller's, or the wait runs out (Nomad's semantics).
      // Waits in slices of at most a second, so a shutdown is noticed; the handler re-runs only after a write.
      while ((result.index ?? seen) <= minIndex && Date.now() < deadline && !services.stopping) {
        await unlessAborted(services.store.waitForIndex(Math.max(minIndex, seen), Math.min(1000, deadline - Date.now())), services.shutdown);
        if (services.store.index() === seen) continue;
        seen = services.store.index();
        result = await serve(req);
      }
    }
    const headers = withNomadTwins({
      'x-svc-index': String(result.index ?? services.store.index()),
      'x-svc-knownleader': String(services.leadership.knownLeader()),
      'x-svc-lastcontact': String(services.leadership.lastContactMs()),
      ...result.headers,
    });
    if (result.stream) return { status: result.status ?? 200, headers, body: '', stream: untilShutdown(result.stream, raw, requestId, services) };
    return schedulerJson(result.body, result.status ?? 200, headers);
  } catch (err) {
    const { status, message, internal } = classify(err);
    if (internal) services.log.error(`request ${requestId} ${raw.method} ${raw.path}: ${(err as Error)?.stack ?? message}`);
    return schedulerError(status, message);
  }
}
