/**
 * svc's blocking read of KV secrets, for watchers that would otherwise poll (the node's templates): every
 * read of a secret (version 2's data/<path>, version 1's <path>) answers X-Svc-Index, the index of the last
 * change to any secret of that version (for version 2 a write, delete, undelete, destroy or metadata
 * change); a read with ?index=<that> waits until a later one, or `wait`, or the server's shutdown, then
 * answers as any read. Vault has no such parameter; its clients never send it, and a read without it
 * answers at once.
 *
 * The wait may outlast the token or the policy that let the read in, so both are checked again after it:
 * a task whose token was revoked meanwhile is not handed what was written since.
 */
import type { Fields } from '../../framework/schema/field-schema.js';
import { coerceField, type FieldData } from '../../framework/schema/field-data.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import type { SecretsRequest } from '../framework/request.js';
import { callerOf, tokenUsable } from '../token/caller.js';
import { unlessAborted } from '../../shared/unless-aborted.js';

const DEFAULT_WAIT_SECONDS = 300;
const MAX_WAIT_SECONDS = 600;

export const BLOCKING_FIELDS: Fields = {
  index: {
    type: 'int',
    query: true,
    description: "svc's blocking read: answer once a change after this index (an earlier answer's X-Svc-Index) happened, or `wait` passed.",
  },
  wait: { type: 'duration', query: true, description: 'How long a blocking read waits at most: 5m when not given, 10m at most.' },
};

export interface BlockingParams {
  index?: number;
  /** seconds */
  wait?: number;
}

/** The parameters from a path's fields (version 2, which declares them). */
export function blockingParams(data: FieldData): BlockingParams {
  return { index: data.getOk<number>('index'), wait: data.getOk<number>('wait') };
}

/**
 * The parameters from a version 1 read's query, which reaches the handler as its input: version 1 takes
 * any key as a secret's, so they are not fields of its path (a secret may well have an "index").
 */
export function blockingParamsOf(input: Record<string, unknown> | undefined): BlockingParams {
  const value = (name: 'index' | 'wait') => (input?.[name] === undefined ? undefined : (coerceField(name, BLOCKING_FIELDS[name], input[name]) as number));
  return { index: value('index'), wait: value('wait') };
}

/** The answer's header: where a watcher's next blocking read of `table`'s secrets starts from. */
export function kvIndexHeaders(req: SecretsRequest, table: string): Record<string, string> {
  return { 'X-Svc-Index': String(req.services.store.tableIndex(table)) };
}

/**
 * Waits for a change to `table` as ?index and ?wait ask (not at all without ?index), then checks the caller
 * may still read the path.
 */
export async function waitForKvChange(req: SecretsRequest, { index, wait }: BlockingParams, table: string): Promise<void> {
  if (index === undefined || index === 0) return;
  if (index < 0) throw new UserError('field "index" must be an index from an earlier answer\'s X-Svc-Index (0 or more)');
  const waitSeconds = wait ?? DEFAULT_WAIT_SECONDS;
  if (waitSeconds < 0) throw new UserError('field "wait" must be a duration of 0 or more, such as "5m"');
  const { services } = req;
  if (services.stopping) return;
  await unlessAborted(services.store.waitForIndex(index, Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000, table), services.shutdown);
  if (!req.caller || !req.clientToken) return;
  const token = await services.tokens.resolve(req.clientToken, req.remoteAddress).catch(() => undefined);
  if (!token || !tokenUsable(token, services)) throw new PermissionDenied();
  if (!(await callerOf(token, services)).acl.allows(req.fullPath, 'read')) throw new PermissionDenied();
}
