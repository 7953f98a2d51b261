/**
 * The listing evaluations and deployments share (Nomad's shape for both): the request's namespace, or
 * every namespace the token may read with `*`; an even-hex ID prefix, which switches the order (and the
 * paging token) from `<CreateIndex>.<ID>` to the ID, as Nomad walks its ID index then; reverse; a filter
 * over each full record; paging with X-Svc-NextToken.
 */
import type { Fields } from '../../framework/schema/field-schema.js';
import { compileFilter } from '../filter/index.js';
import { compareCreateIndexTokens, createIndexToken, paginate, validateHexPrefix } from './paging.js';
import type { RouteResult, SchedulerRequest } from './route.js';
import { streamedList } from './json-stream.js';

interface Listed {
  ID: string;
  Namespace: string;
  CreateIndex: number;
}

export const LIST_QUERY: Fields = {
  prefix: { type: 'string', description: 'Only items whose ID starts with this (an even number of hex characters).' },
  filter: { type: 'string', description: 'A filter expression evaluated against each item.' },
  per_page: { type: 'int', description: 'Page size; 0 means no paging.' },
  next_token: { type: 'string', description: 'Where the page starts: the X-Svc-NextToken of the previous page.' },
  reverse: { type: 'bool', description: 'Newest first (reverse ID order with a prefix).' },
};

/** `items` oldest first (by CreateIndex, then ID); `keep` narrows them further (job, status ...). */
export function listByCreateIndex<T extends Listed>(req: SchedulerRequest, items: T[], table: number, keep: (item: T) => boolean = () => true): RouteResult {
  const prefix = req.query.get<string>('prefix').replace(/-/g, '');
  if (prefix) validateHexPrefix(prefix);
  const { acl } = req.caller;
  let list = items.filter(
    (i) =>
      (req.namespace === '*' ? acl.allowsNamespace(i.Namespace, 'read-job') : i.Namespace === req.namespace) &&
      (!prefix || i.ID.replace(/-/g, '').startsWith(prefix)) &&
      keep(i),
  );
  if (prefix) list = list.sort((a, b) => (a.ID < b.ID ? -1 : 1));
  const reverse = req.query.get<boolean>('reverse');
  if (reverse) list.reverse();
  const filterText = req.query.get<string>('filter');
  const { page, nextToken } = paginate(list, {
    perPage: req.query.get<number>('per_page'),
    nextToken: req.query.get<string>('next_token'),
    tokenOf: (i) => (prefix ? i.ID : createIndexToken(i.CreateIndex, i.ID)),
    compareToken: prefix ? undefined : compareCreateIndexTokens,
    filter: filterText ? compileFilter(filterText) : undefined,
    reverse,
  });
  const index = Math.max(1, table);
  // Unpaged, the records are written in chunks rather than serialised all at once.
  if (req.query.get<number>('per_page') === 0) return streamedList(index, page, (i) => i);
  return { body: page, index, headers: nextToken ? { 'x-svc-nexttoken': nextToken } : undefined };
}
