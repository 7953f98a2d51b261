/**
 * Who calls a scheduler route, and how the pipeline establishes it: a token, whose ACL the route's
 * requirement is checked against, or a node on the node API, proving itself with the SecretID it
 * registered with. A node has no policies: it may only speak for itself, which its routes check.
 */
import { PermissionDenied } from '../../shared/errors.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import type { RawRequest } from '../../framework/http/types.js';
import type { SchedulerContext } from '../context.js';
import { callerFor, TokenRefused, type TokenCaller } from '../../secrets/token/caller.js';
import { nodeSecretMatches } from '../state/nodes.js';

export interface NodeCaller {
  kind: 'node';
  nodeId: string;
}

export type Caller = TokenCaller | NodeCaller;

/** A request with no token, on a route that needs none. */
export interface AnonymousCaller {
  kind: 'anonymous';
}

/**
 * The request's token as a caller, made as the secrets side makes it (and kept in the same cache);
 * refused in Nomad's words when it is missing, unknown or no longer usable.
 */
export async function authenticate(raw: RawRequest, services: SchedulerContext): Promise<TokenCaller> {
  const secret = tokenFromHeaders(raw.headers);
  if (!secret) throw new PermissionDenied('Permission denied');
  try {
    return await callerFor(secret, raw.remoteAddress, services);
  } catch (err) {
    if (err instanceof TokenRefused) throw new PermissionDenied(err.reason === 'unknown' ? 'ACL token not found' : 'Permission denied');
    throw err;
  }
}

/** Why the request's token is not usable, or undefined when it is (for answers that must tell an anonymous caller nothing). */
export async function tokenRefusal(raw: RawRequest, services: SchedulerContext): Promise<PermissionDenied | undefined> {
  try {
    await authenticate(raw, services);
    return undefined;
  } catch (err) {
    if (err instanceof PermissionDenied) return err;
    throw err;
  }
}

/** The node named by the path, when the request's token is its secret. */
export function authenticateNode(raw: RawRequest, nodeId: string, services: SchedulerContext): NodeCaller {
  const secret = tokenFromHeaders(raw.headers) ?? '';
  if (!nodeSecretMatches(services.store, nodeId, secret)) throw new PermissionDenied('Permission denied');
  return { kind: 'node', nodeId };
}

/**
 * The node a registration comes from, when it proves itself: its secret matches the one its ID (Node.ID
 * in the body) is known by. Undefined otherwise: the registration needs a management token then.
 */
export function registeringNode(raw: RawRequest, services: SchedulerContext): NodeCaller | undefined {
  const secret = tokenFromHeaders(raw.headers);
  if (!secret) return undefined;
  let nodeId: unknown;
  try {
    nodeId = (JSON.parse(raw.body.toString('utf8')) as { Node?: { ID?: unknown } } | null)?.Node?.ID;
  } catch {
    return undefined;
  }
  return typeof nodeId === 'string' && nodeSecretMatches(services.store, nodeId, secret) ? { kind: 'node', nodeId } : undefined;
}
