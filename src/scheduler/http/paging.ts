/**
 * Paging for scheduler list endpoints, as Nomad's paginator does it: walk the items in
 * table order, skip those that sort before `next_token`, drop those the filter rejects, and stop after
 * `per_page`. The token handed back is the token of the first item of the *next* page (inclusive), so a
 * client resumes exactly there; no token means this was the last page.
 */
import { UserError } from '../../shared/errors.js';

export interface PageOptions<T> {
  /** maximum items on the page; 0 means no paging (everything from next_token on) */
  perPage: number;
  /** the token of the first item wanted; '' starts at the beginning */
  nextToken: string;
  tokenOf: (item: T) => string;
  /** the table order of tokens; default is plain string order */
  compareToken?: (a: string, b: string) => number;
  filter?: (item: T) => boolean;
  /** items are given in descending token order (`reverse=true`), so "before next_token" means greater */
  reverse?: boolean;
}

export interface Page<T> {
  page: T[];
  /** absent on the last page */
  nextToken?: string;
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `items` must already be in table order (reversed when `reverse` is set). */
export function paginate<T>(items: T[], opts: PageOptions<T>): Page<T> {
  const { perPage, nextToken, tokenOf, filter } = opts;
  if (!Number.isInteger(perPage) || perPage < 0) {
    throw new UserError(`per_page must be a whole number of 0 or more, got ${perPage}`);
  }
  const compare = opts.compareToken ?? compareStrings;
  const direction = opts.reverse ? -1 : 1;
  let start = 0;
  if (nextToken !== '') {
    // Comparing the token with itself reports a malformed next_token even when the list is empty.
    compare(nextToken, nextToken);
    // Items are in table order, so the first one at or after next_token is found by bisection: a page
    // deep into 50,000 allocations costs a few comparisons, not a walk from the start.
    let hi = items.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (direction * compare(tokenOf(items[mid]), nextToken) < 0) start = mid + 1;
      else hi = mid;
    }
  }
  const page: T[] = [];
  for (let i = start; i < items.length; i++) {
    const item = items[i];
    // Filtered-out items never count, so the next token always names an item the filter keeps.
    if (filter && !filter(item)) continue;
    if (perPage > 0 && page.length === perPage) return { page, nextToken: tokenOf(item) };
    page.push(item);
  }
  return { page };
}

/** The token allocations and evaluations page by: `<CreateIndex>.<ID>`. */
export function createIndexToken(createIndex: number, id: string): string {
  return `${createIndex}.${id}`;
}

function splitCreateIndexToken(token: string): { index: number; id: string } {
  const dot = token.indexOf('.');
  const head = dot < 0 ? token : token.slice(0, dot);
  if (!/^[0-9]+$/.test(head)) {
    throw new UserError(`next_token ${JSON.stringify(token)} is not a "<CreateIndex>.<ID>" paging token`);
  }
  return { index: Number(head), id: dot < 0 ? '' : token.slice(dot + 1) };
}

/**
 * Orders `<CreateIndex>.<ID>` tokens by the index as a number, then by ID; string order would put
 * `10.x` before `9.x`. A token that does not start with a number is an error naming `next_token`,
 * since item tokens are always well formed and only the caller's token can be wrong.
 */
export function compareCreateIndexTokens(a: string, b: string): number {
  const ta = splitCreateIndexToken(a);
  const tb = splitCreateIndexToken(b);
  if (ta.index !== tb.index) return ta.index < tb.index ? -1 : 1;
  return compareStrings(ta.id, tb.id);
}

/**
 * The `prefix` of allocation and evaluation lists is decoded to bytes to search the UUID index, so it
 * must be an even number of hex digits, as Nomad requires. Dashes are ignored, as in a UUID; the CLI
 * trims odd lengths before sending.
 */
export function validateHexPrefix(prefix: string): void {
  const digits = prefix.replace(/-/g, '');
  if (!/^[0-9a-f]*$/.test(digits)) {
    throw new UserError(`prefix ${JSON.stringify(prefix)} must contain only hexadecimal characters (0-9a-f)`);
  }
  if (digits.length % 2 !== 0) {
    throw new UserError(
      `prefix ${JSON.stringify(prefix)} must have an even number of hexadecimal characters, got ${digits.length}`,
    );
  }
}
