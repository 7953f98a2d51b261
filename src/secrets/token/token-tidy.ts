/**
 * The token store's tidy, as Vault's auth/token/tidy: expired tokens are revoked with their children, and
 * the index rows a lost write or an older server can leave behind are put right — accessor rows whose
 * token is gone (or has another accessor), parent rows whose child is gone, children of a parent that is
 * gone made orphans, a child's lost parent row restored. There are no leases or cubbyholes to tidy here.
 * The repair is one transaction, so a crash in the middle leaves the indexes as they were; a store with
 * nothing to repair is not written at all.
 */
import type { Logger } from '../../shared/log.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { TokenEntry } from './token-entry.js';
import type { TokenService } from './token-service.js';
import { ACCESSORS_TABLE, PARENTS_TABLE, TOKENS_TABLE } from './token-store.js';

export interface TidyCounts {
  expiredRevoked: number;
  accessorsDeleted: number;
  parentRowsDeleted: number;
  orphaned: number;
  parentRowsRestored: number;
}

/** What both a Store and a transaction read with. */
type Reader = Pick<WriteTx, 'get' | 'list'>;

interface Repairs {
  staleAccessors: string[];
  staleParentRows: string[];
  orphans: TokenEntry[];
  lostParentRows: string[];
}

function findRepairs(r: Reader): Repairs {
  const out: Repairs = { staleAccessors: [], staleParentRows: [], orphans: [], lostParentRows: [] };
  for (const { key } of r.list<boolean>(PARENTS_TABLE)) {
    const slash = key.indexOf('/');
    const parentId = key.slice(0, slash);
    const child = r.get<TokenEntry>(TOKENS_TABLE, key.slice(slash + 1));
    if (!child || child.parentId !== parentId || !r.get(TOKENS_TABLE, parentId)) out.staleParentRows.push(key);
  }
  for (const { key: accessor, value: id } of r.list<string>(ACCESSORS_TABLE)) {
    const token = id ? r.get<TokenEntry>(TOKENS_TABLE, id) : undefined;
    if (token?.accessor !== accessor) out.staleAccessors.push(accessor);
  }
  for (const { value: token } of r.list<TokenEntry>(TOKENS_TABLE)) {
    if (!token.parentId) continue;
    const rowKey = `${token.parentId}/${token.id}`;
    if (!r.get(TOKENS_TABLE, token.parentId)) out.orphans.push(token);
    // Without its row the child would survive its parent's revocation.
    else if (r.get(PARENTS_TABLE, rowKey) === undefined) out.lostParentRows.push(rowKey);
  }
  return out;
}

const nothingToDo = (r: Repairs) => r.staleAccessors.length + r.staleParentRows.length + r.orphans.length + r.lostParentRows.length === 0;

/** Finds the repairs again inside the transaction, so that none rests on what a concurrent write changed. */
function repairInTx(tx: WriteTx): Repairs {
  const repairs = findRepairs(tx);
  for (const key of repairs.staleParentRows) tx.delete(PARENTS_TABLE, key);
  for (const accessor of repairs.staleAccessors) tx.delete(ACCESSORS_TABLE, accessor);
  for (const token of repairs.orphans) tx.put(TOKENS_TABLE, token.id, { ...token, parentId: '', orphan: true });
  for (const key of repairs.lostParentRows) tx.put(PARENTS_TABLE, key, true);
  return repairs;
}

export async function tidyTokens(store: Store, tokens: TokenService, log: Logger): Promise<TidyCounts> {
  log.info('beginning tidy operation on tokens');
  const expiredRevoked = await tokens.sweepExpired();
  let repairs = findRepairs(store);
  if (!nothingToDo(repairs)) repairs = (await store.write(repairInTx)).result;
  const counts: TidyCounts = {
    expiredRevoked,
    accessorsDeleted: repairs.staleAccessors.length,
    parentRowsDeleted: repairs.staleParentRows.length,
    orphaned: repairs.orphans.length,
    parentRowsRestored: repairs.lostParentRows.length,
  };
  log.info(
    `finished tidy operation on tokens: ${counts.expiredRevoked} expired token(s) revoked, ${counts.accessorsDeleted} stale accessor row(s) ` +
      `and ${counts.parentRowsDeleted} stale parent row(s) deleted, ${counts.orphaned} token(s) of a missing parent made orphans, ` +
      `${counts.parentRowsRestored} missing parent row(s) restored`,
  );
  return counts;
}
