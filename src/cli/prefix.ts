/**
 * What a user means by an ID or an ID prefix, for the job, evaluation, allocation and node commands
 * (Nomad's behaviour): an exact ID wins, a unique prefix is accepted, several matches are refused with
 * a table of them, no match is refused with the kind's own message.
 *
 * UUID-keyed kinds take at least two characters, and the server matches an even number of hex digits,
 * so an odd-length prefix is trimmed by one character for the query (as Nomad's sanitizeUUIDPrefix);
 * the answers are then narrowed to the full prefix the user typed, which Nomad does not do.
 */
import { CommandFailure } from './command-failure.js';

export interface PrefixKind<T> {
  /** plural noun of "Prefix matched multiple …": jobs, evaluations, allocations, nodes */
  plural: string;
  /** the message when nothing matches, given the prefix that was looked up */
  notFound(prefix: string): string;
  /** the candidates whose ID starts with `prefix` */
  list(prefix: string): Promise<T[]>;
  idOf(item: T): string;
  /** the table shown under "Prefix matched multiple …" */
  table(matches: T[]): string;
  /** IDs are UUIDs: at least two characters, an even number of hex digits is queried */
  uuid?: boolean;
}

/** Nomad's sanitizeUUIDPrefix: drops the last character when the prefix has an odd number of non-dash characters. */
export function sanitizeUuidPrefix(prefix: string): string {
  const digits = prefix.replace(/-/g, '').length;
  return digits % 2 === 1 ? prefix.slice(0, -1) : prefix;
}

const bare = (id: string) => id.replace(/-/g, '').toLowerCase();

export async function resolveByPrefix<T>(kind: PrefixKind<T>, typed: string): Promise<T> {
  const wanted = typed.trim();
  let query = wanted;
  if (kind.uuid) {
    if (wanted.length < 2) throw new CommandFailure('Identifier must contain at least two characters.');
    query = sanitizeUuidPrefix(wanted);
    // Not an ID prefix at all: nothing can match, and the server would refuse the query.
    if (!/^[0-9a-fA-F-]+$/.test(wanted)) throw new CommandFailure(kind.notFound(wanted));
  }
  let found = await kind.list(query);
  if (kind.uuid && query !== wanted) {
    const narrowed = found.filter((item) => bare(kind.idOf(item)).startsWith(bare(wanted)));
    found = narrowed;
  }
  if (found.length === 0) throw new CommandFailure(kind.notFound(kind.uuid ? wanted : query));
  const exact = found.filter((item) => kind.idOf(item) === wanted);
  if (exact.length === 1) return exact[0];
  if (found.length === 1) return found[0];
  // Several exact matches happen across namespaces (-namespace=*): list only those.
  const listed = exact.length > 1 ? exact : found;
  throw new CommandFailure(`Prefix matched multiple ${kind.plural}\n\n${kind.table(listed).replace(/\n$/, '')}`);
}
