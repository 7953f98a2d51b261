/**
 * The secrets API pipeline: route to a backend path, resolve the token, check the ACL, coerce the
 * fields, count the token use, run the handler. Every step that can fail does so before the handler
 * runs, so a handler never sees an unauthorised caller or an ill-typed field.
 */
import { nestsDeeperThan, tooDeep } from '../../shared/json-depth.js';
import { jsonSyntaxProblem } from '../../framework/http/json-error.js';
import { checkKeyPart } from '../../shared/key-length.js';
import { NotFound, PermissionDenied, UnsupportedOperation, UserError } from '../../shared/errors.js';
import { FieldData, coerceField } from '../../framework/schema/field-data.js';
import type { Operation } from '../../framework/schema/field-schema.js';
import { classify, secretsError } from '../../framework/http/respond.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import type { RawRequest, RawResponse } from '../../framework/http/types.js';
import type { SecretsContext } from '../context.js';
import { matchPath, type Backend, type Handler, type PathDef } from '../framework/path.js';
import { pathHelpResponse, renderBackendHelp } from '../framework/help.js';
import type { SecretsRequest, SecretsResponse } from '../framework/request.js';
import { callerFor, type TokenCaller } from '../token/caller.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
import { secretsOk } from './envelope.js';
import { dataAtTopLevel } from './top-level-routes.js';

export interface SecretsRouting {
  /** fixed backends by mount path: sys/, identity/ */
  fixed: Record<string, Backend>;
  /** auth method backends by type: token, cloud ... */
  authTypes: Record<string, Backend>;
  /** the backend that serves a mounted secrets engine (kv answers by its version option) */
  engines?: (mount: SecretMountEntry) => Backend | undefined;
}

export interface ResolvedRoute {
  backend: Backend;
  mountPath: string;
  mountAccessor: string;
  /** path relative to the mount, without leading or trailing slash */
  rest: string;
}

export function resolveBackend(rel: string, services: SecretsContext, routing: SecretsRouting): ResolvedRoute | undefined {
  for (const mountPath in routing.fixed) {
    // Whether `${rel}/` starts with the mount path, without building that string on every request.
    if (rel.startsWith(mountPath) || (rel.length === mountPath.length - 1 && mountPath.startsWith(rel))) {
      return { backend: routing.fixed[mountPath], mountPath, mountAccessor: '', rest: trimSlashes(rel.slice(mountPath.length)) };
    }
  }
  const mount = services.mounts.route(rel);
  const backend = mount && routing.authTypes[mount.type];
  if (mount && backend) return { backend, mountPath: mount.path, mountAccessor: mount.accessor, rest: trimSlashes(rel.slice(mount.path.length)) };
  const engine = services.secretMounts.route(rel);
  const engineBackend = engine && routing.engines?.(engine);
  if (!engine || !engineBackend) return undefined;
  return { backend: engineBackend, mountPath: engine.path, mountAccessor: engine.accessor, rest: trimSlashes(rel.slice(engine.path.length)) };
}

const trimSlashes = (s: string) => (s.startsWith('/') || s.endsWith('/') ? s.replace(/^\/+|\/+$/g, '') : s);

function requestedOperation(raw: RawRequest): Operation | 'write' | 'patch' {
  switch (raw.method) {
    case 'LIST':
      return 'list';
    case 'GET':
    case 'HEAD': {
      const list = raw.query.get('list');
      if (list === null) return 'read';
      return coerceField('list', { type: 'bool', description: '' }, list) ? 'list' : 'read';
    }
    case 'POST':
    case 'PUT':
      return 'write';
    case 'DELETE':
      return 'delete';
    case 'PATCH':
      return 'patch';
    default:
      throw new UnsupportedOperation(`unsupported method ${raw.method}`);
  }
}

function parseBody(raw: RawRequest): Record<string, unknown> {
  if (raw.body.length === 0) return {};
  if (nestsDeeperThan(raw.body)) throw new UserError(`failed to parse JSON input: ${tooDeep()}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.body.toString('utf8'));
  } catch (err) {
    throw new UserError(`failed to parse JSON input: ${jsonSyntaxProblem(err)}`);
  }
  if (parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError('failed to parse JSON input: the body must be a JSON object');
  return parsed as Record<string, unknown>;
}

function rawData(raw: RawRequest, op: Operation | 'write' | 'patch', def: PathDef): Record<string, unknown> {
  const fromQuery: Record<string, unknown> = {};
  for (const [k, v] of raw.query) {
    if (k === 'list') continue;
    if (op !== 'write' || def.fields[k]?.query) fromQuery[k] = v;
  }
  return op === 'write' ? { ...parseBody(raw), ...fromQuery } : fromQuery;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: null removes a key, objects merge, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * A PATCH: the read operation's answer, limited to the path's fields, with the body merged over it, then
 * the update operation with the result. The ACL check (capability `patch`) has already passed.
 */
async function patchThrough(raw: RawRequest, def: PathDef, params: Record<string, string>, partial: Omit<SecretsRequest, 'operation'>): Promise<SecretsResponse | void> {
  const read = def.operations.read!;
  const update = def.operations.update!;
  const current = await read.handler({ ...partial, operation: 'read' }, new FieldData(params, def.fields, 'read'));
  if (!current?.data) throw new NotFound();
  const stored = Object.fromEntries(Object.entries(current.data).filter(([k]) => Object.hasOwn(def.fields, k)));
  const merged = mergePatch(stored, parseBody(raw)) as Record<string, unknown>;
  const data = new FieldData({ ...merged, ...params }, def.fields, 'update');
  return withWarnings(await update.handler({ ...partial, operation: 'update' }, data), data);
}

/**
 * The handler's answer with its fields' warnings (ignored and deprecated parameters) added, as Vault's
 * framework adds them: only to an answer there is, so a write or delete that answers nothing stays a 204.
 * Deprecated path aliases answer as their current path does, without a warning of their own (Vault).
 */
function withWarnings(answer: SecretsResponse | void, data: FieldData, def?: PathDef): SecretsResponse | undefined {
  if (!answer) return undefined;
  const warnings = [...(answer.warnings ?? []), ...(def?.takesArbitraryInput ? [] : data.warnings())];
  return warnings.length > 0 ? { ...answer, warnings } : answer;
}

/**
 * A PATCH the path answers itself (KV v2's data and metadata, whose merge rules are their own): Vault
 * takes only a JSON merge patch there, and says so with a 415.
 */
async function ownPatch(raw: RawRequest, def: PathDef, handler: Handler, params: Record<string, string>, partial: Omit<SecretsRequest, 'operation'>): Promise<SecretsResponse | void> {
  const header = Object.entries(raw.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
  if (contentType.split(';')[0].trim().toLowerCase() !== 'application/merge-patch+json') {
    return { raw: { errors: [`PATCH requires Content-Type of application/merge-patch+json, got "${contentType}"`] }, status: 415 };
  }
  // The path parameters are fields; the body's merge rules (a null removes) are the handler's to read.
  const data = new FieldData(params, def.fields, 'update');
  return (await handler({ ...partial, operation: 'update', input: parseBody(raw) }, data)) ?? undefined;
}

async function authenticate(raw: RawRequest, services: SecretsContext): Promise<{ caller: TokenCaller; secret: string } | undefined> {
  const secret = tokenFromHeaders(raw.headers);
  if (!secret) return undefined;
  return { caller: await callerFor(secret, raw.remoteAddress, services), secret };
}

export async function handleSecrets(raw: RawRequest, rel: string, requestId: string, services: SecretsContext, routing: SecretsRouting): Promise<RawResponse> {
  const matched: { route?: string } = {};
  const answer = await answerSecrets(raw, rel, requestId, services, routing, matched);
  answer.route = matched.route;
  // A HEAD is answered with the status and headers its GET would have, and no body.
  return raw.method === 'HEAD' ? { ...answer, body: '' } : answer;
}

async function answerSecrets(raw: RawRequest, rel: string, requestId: string, services: SecretsContext, routing: SecretsRouting, matched: { route?: string }): Promise<RawResponse> {
  try {
    const res = await dispatch(raw, rel, requestId, services, routing, matched);
    return secretsOk(requestId, res, dataAtTopLevel(rel));
  } catch (err) {
    const { status, message, internal } = classify(err);
    if (internal) services.log.error(`request ${requestId} ${raw.method} /v1/${rel}: ${(err as Error)?.stack ?? message}`);
    return secretsError(status, message === '' ? [] : [message]);
  }
}

/**
 * Only canonical paths are served: an empty, `.` or `..` segment (`sys//policy/x`, or a `%2F` that
 * decodes to one) would route to a handler under a name the ACL rules do not match.
 */
function checkCanonical(rel: string): void {
  if (!canonical(rel)) throw new UserError(`invalid request path "${rel}": empty, "." and ".." segments are not allowed`);
}

/** No segment is empty, `.` or `..`; one trailing slash makes no empty segment (`sys/policy/` lists). */
function canonical(rel: string): boolean {
  const end = rel.endsWith('/') ? rel.length - 1 : rel.length;
  for (let start = 0; ; ) {
    let slash = rel.indexOf('/', start);
    if (slash === -1 || slash > end) slash = end;
    const length = slash - start;
    if (length === 0 || (length <= 2 && rel[start] === '.' && (length === 1 || rel[start + 1] === '.'))) return false;
    if (slash === end) return true;
    start = slash + 1;
  }
}

/** The caller's capability on the path (and `sudo`, where the path needs it); an unauthenticated path needs none. */
function checkAcl(caller: TokenCaller | undefined, def: PathDef, aclPath: string, capability: Operation | 'patch'): void {
  if (!caller || def.unauthenticated) return;
  const { acl } = caller;
  if (!acl.allows(aclPath, capability) || (def.sudo && !acl.capabilities(aclPath).has('sudo'))) throw new PermissionDenied();
}

/** The metrics' route labels, by path and mount: the same string every time, which the metrics' maps find at once. */
const routeLabels = new WeakMap<PathDef, Map<string, string>>();

function routeLabel(mountPath: string, def: PathDef): string {
  let byMount = routeLabels.get(def);
  if (!byMount) routeLabels.set(def, (byMount = new Map()));
  let label = byMount.get(mountPath);
  if (label === undefined) byMount.set(mountPath, (label = `/v1/${mountPath}${def.pattern}`));
  return label;
}

/** Answers the request; `matched.route` is set to the mount and pattern of the path that answers once one is found. */
async function dispatch(raw: RawRequest, rel: string, requestId: string, services: SecretsContext, routing: SecretsRouting, matched: { route?: string }): Promise<SecretsResponse | void> {
  try {
    checkCanonical(rel);
  } catch (err) {
    // Such a path serves nothing, not even a login: who may not ask learns nothing, not even that.
    if (!(await authenticate(raw, services))) throw new PermissionDenied();
    throw err;
  }
  const requested = requestedOperation(raw);
  const route = resolveBackend(rel, services, routing);
  const match = route && matchPath(route.backend.paths, route.rest);
  const def = match?.def;

  const help = raw.query.get('help') === '1';
  // An unauthenticated path (login, health) ignores a bad token rather than refusing the request.
  const auth = !def?.unauthenticated ? await authenticate(raw, services) : def.tokenIgnored && !help ? undefined : await authenticate(raw, services).catch(() => undefined);
  if (!def?.unauthenticated && !auth) throw new PermissionDenied();
  // A use is counted for every authenticated request, allowed or not, as Vault does; an unlimited token has none to count.
  if (auth && !def?.unauthenticated && auth.caller.token.numUses > 0) await services.tokens.use(auth.caller.token);
  if (!route) throw new NotFound(`no handler for route "${rel}". route entry not found.`);
  // Help needs a valid token but no capability on the path (Vault's `?help=1`).
  if (help) {
    if (!auth) throw new PermissionDenied();
    if (match) return { raw: pathHelpResponse(match.def, route.mountPath, route.rest, services.version) };
    if (route.rest === '') return { raw: { help: renderBackendHelp(route.backend), see_also: null } };
  }
  if (!match || !def) throw new NotFound('unsupported path');
  matched.route = routeLabel(route.mountPath, def);
  // Every name taken from the path ends up in a storage key or a lookup.
  for (const [name, value] of Object.entries(match.params)) if (typeof value === 'string') checkKeyPart(`path parameter "${name}"`, value);

  // The one name of the path that the ACL, the handlers and the logs use.
  const joined = `${route.mountPath}${route.rest}`;
  const base = joined.endsWith('/') ? joined.slice(0, -1) : joined;
  const partial = {
    requestId,
    fullPath: base,
    path: route.rest,
    mountPath: route.mountPath,
    mountAccessor: route.mountAccessor,
    params: match.params,
    caller: auth?.caller,
    clientToken: auth?.secret,
    remoteAddress: raw.remoteAddress,
    headers: raw.headers,
    services,
  };

  if (requested === 'patch') {
    checkAcl(auth?.caller, def, base, 'patch');
    if (def.patchHandler) return ownPatch(raw, def, def.patchHandler, match.params, partial);
    if (!def.patch || !def.operations.read || !def.operations.update) throw new UnsupportedOperation(`${base} does not support PATCH`);
    return patchThrough(raw, def, match.params, partial);
  }

  let operation: Operation;
  if (requested === 'write') {
    // Only the path parameters decide existence, so an unauthorised caller learns nothing from its body.
    const probe = new FieldData(match.params, def.fields, 'read');
    const exists = def.existenceCheck ? await def.existenceCheck({ ...partial, operation: 'update' }, probe) : undefined;
    operation = exists === false || (exists === undefined && !def.operations.update) ? 'create' : 'update';
  } else {
    operation = requested;
  }
  // The ACL first: an unauthorised caller learns nothing, not even which operations the path has.
  checkAcl(auth?.caller, def, operation === 'list' ? `${base}/` : base, operation);
  if (!def.operations[operation] || (raw.method === 'HEAD' && !def.head)) throw new UnsupportedOperation();

  const data = new FieldData({ ...rawData(raw, requested, def), ...match.params }, def.fields, operation);

  const req: SecretsRequest = { ...partial, operation, ...(def.takesArbitraryInput ? { input: rawData(raw, requested, def) } : {}) };
  const res = (await def.operations[operation]!.handler(req, data)) ?? undefined;

  if (operation === 'list') {
    const keys = res?.data?.keys;
    if (!Array.isArray(keys) || keys.length === 0) throw new NotFound();
  }
  return withWarnings(res, data, def);
}
