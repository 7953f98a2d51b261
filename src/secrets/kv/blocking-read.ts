/**
 * svc's blocking read of KV version 2 data, for watchers that would otherwise poll (the node's templates):
 * every read of data/<path> answers X-Svc-Index, the index of the last KV version 2 change anywhere
 * (a write, delete, undelete, destroy or metadata change); a read with ?index=<that> waits until a later
 * change, or `wait`, or the server's shutdown, then answers as any read. Vault has no such parameter;
 * its clients never send it, and a read without it answers at once.
 *
 * The wait may outlast the token or the policy that let the read in, so both are checked again after it:
 * a task whose token was revoked meanwhile is not handed what was written since.
 */
import type { Fields } from '../../framework/schema/field-schema.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import type { SecretsRequest } from '../framework/request.js';
import { callerOf, tokenUsable } from '../token/caller.js';
import { KV_META_TABLE } from './storage.js';

const DEFAULT_WAIT_SECONDS = 300;
const MAX_WAIT_SECONDS = 600;

export const BLOCKING_FIELDS: Fields = {
  index: {
    type: 'int',
    query: true,
    description: "svc's blocking read: answer once a KV version 2 change after this index (an earlier answer's X-Svc-Index) happened, or `wait` passed.",
  },
  wait: { type: 'duration', query: true, description: 'How long a blocking read waits at most: 5m when not given, 10m at most.' },
};

/** The answer's header: where a watcher's next blocking read starts from. */
export function kvIndexHeaders(req: SecretsRequest): Record<string, string> {
  return { 'X-Svc-Index': String(req.services.store.tableIndex(KV_META_TABLE)) };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** Waits as ?index and ?wait ask (not at all without ?index), then checks the caller may still read the path. */
export async function waitForKvChange(req: SecretsRequest, data: FieldData): Promise<void> {
  const index = data.getOk<number>('index');
  if (index === undefined || index === 0) return;
  if (index < 0) throw new UserError('field "index" must be an index from an earlier answer\'s X-Svc-Index (0 or more)');
  const waitSeconds = data.getOk<number>('wait') ?? DEFAULT_WAIT_SECONDS;
  if (waitSeconds < 0) throw new UserError('field "wait" must be a duration of 0 or more, such as "5m"');
  const { services } = req;
  if (services.stopping) return;
  await Promise.race([services.store.waitForIndex(index, Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000, KV_META_TABLE), untilAborted(services.shutdown)]);
  if (!req.caller || !req.clientToken) return;
  const token = await services.tokens.resolve(req.clientToken, req.remoteAddress).catch(() => undefined);
  if (!token || !tokenUsable(token, services)) throw new PermissionDenied();
  if (!(await callerOf(token, services)).acl.allows(req.fullPath, 'read')) throw new PermissionDenied();
}
